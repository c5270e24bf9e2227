// The features' views, one line each, in the View menu's order.
#include "shell/register_views.hpp"

#include "explore/explore_views.hpp"
#include "flash_tiles/flash_tiles_view.hpp"
#include "kv_cache/kv_cache_view.hpp"

namespace viz {

void register_views(FeatureViews& views, const model::FeatureSet& features) {
  views.add(std::make_unique<WhyScaleFeatureView>(features.get<model::WhyScaleFeature>()));
  views.add(std::make_unique<HullFeatureView>(features.get<model::HullFeature>()));
  views.add(std::make_unique<FlashTilesFeatureView>(features.get<model::FlashTilesFeature>()));
  views.add(std::make_unique<KvCacheFeatureView>(features.get<model::KvCacheFeature>()));
}

}  // namespace viz
