// The app's features, one line each. A new feature is a new folder with its
// Feature, and a line here (and one in app/viz's register_views.cpp for its panel).
#include "model/session/register_features.hpp"

#include "model/classroom/class_feature.hpp"
#include "model/compare/compare_feature.hpp"
#include "model/explore/hull_feature.hpp"
#include "model/explore/why_scale_feature.hpp"
#include "model/flash_tiles/flash_tiles_feature.hpp"
#include "model/hf/model_view_feature.hpp"
#include "model/kv_cache/kv_cache_feature.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "model/train/train_feature.hpp"

namespace model {

void register_features(FeatureSet& features) {
  LessonsFeature& lessons = features.add(std::make_unique<LessonsFeature>());
  ModelViewFeature& model = features.add(std::make_unique<ModelViewFeature>());
  // Compare follows the lesson step and gives way to the Model view: it reads both.
  CompareFeature& compare = features.add(std::make_unique<CompareFeature>(lessons.state, model.ui));
  // Train answers the lesson's head questions, and closes compare when it opens a trained layer.
  features.add(std::make_unique<TrainFeature>(lessons.state, compare.state()));
  features.add(std::make_unique<WhyScaleFeature>());
  features.add(std::make_unique<HullFeature>());
  features.add(std::make_unique<FlashTilesFeature>());
  features.add(std::make_unique<KvCacheFeature>());
  // The class session follows the lesson's steps and reveals with it.
  features.add(std::make_unique<ClassFeature>(lessons.state));
}

}  // namespace model
