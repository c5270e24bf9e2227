// The app's features, one line each. A new feature is a new folder with its
// Feature, and a line here (and one in app/viz's register_views.cpp for its panel).
#include "model/session/register_features.hpp"

#include "model/compare/compare_feature.hpp"
#include "model/explore/hull_feature.hpp"
#include "model/explore/why_scale_feature.hpp"
#include "model/flash_tiles/flash_tiles_feature.hpp"
#include "model/kv_cache/kv_cache_feature.hpp"
#include "model/lessons/lessons_feature.hpp"

namespace model {

void register_features(FeatureSet& features) {
  // Compare follows the lesson step: it reads the lessons' state.
  LessonsFeature& lessons = features.add(std::make_unique<LessonsFeature>());
  features.add(std::make_unique<CompareFeature>(lessons.state));
  features.add(std::make_unique<WhyScaleFeature>());
  features.add(std::make_unique<HullFeature>());
  features.add(std::make_unique<FlashTilesFeature>());
  features.add(std::make_unique<KvCacheFeature>());
}

}  // namespace model
