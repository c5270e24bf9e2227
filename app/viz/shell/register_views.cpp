// The features' views, one line each, in the View menu's order.
#include "shell/register_views.hpp"

#include "classroom/class_view.hpp"
#include "compare/compare_view.hpp"
#include "explore/explore_views.hpp"
#include "flash_tiles/flash_tiles_view.hpp"
#include "hf/model_view.hpp"
#include "kv_cache/kv_cache_view.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "train/train_view.hpp"

namespace viz {

void register_views(FeatureViews& views, const model::FeatureSet& features, const AtlasTextures& model_textures) {
  // The views that take the canvas's place, the first open one winning.
  model::LessonState& lessons = features.get<model::LessonsFeature>().state;
  views.add(std::make_unique<ModelFeatureView>(features.get<model::ModelViewFeature>(), model_textures));
  views.add(std::make_unique<TrainFeatureView>(features.get<model::TrainFeature>(), lessons));
  views.add(std::make_unique<CompareFeatureView>(features.get<model::CompareFeature>(), lessons));
  // The panels over the canvas.
  views.add(std::make_unique<WhyScaleFeatureView>(features.get<model::WhyScaleFeature>()));
  views.add(std::make_unique<HullFeatureView>(features.get<model::HullFeature>()));
  views.add(std::make_unique<FlashTilesFeatureView>(features.get<model::FlashTilesFeature>()));
  views.add(std::make_unique<KvCacheFeatureView>(features.get<model::KvCacheFeature>()));
  views.add(std::make_unique<ClassFeatureView>(features.get<model::ClassFeature>()));
}

}  // namespace viz
