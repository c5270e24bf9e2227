// The "KV cache" feature's view: its panel and menu entry.
#pragma once

#include "feature/feature_view.hpp"
#include "model/kv_cache/kv_cache_feature.hpp"

namespace viz {

class KvCacheFeatureView : public FeatureViewOf<model::KvCacheFeature> {
 public:
  using FeatureViewOf::FeatureViewOf;
  const char* menu_label() const override { return "KV cache (generation token by token)"; }
  void draw(const PanelFrame& frame) override;
};

}  // namespace viz
