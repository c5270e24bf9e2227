// The "FlashAttention tiles" feature's view: its panel and menu entry.
#pragma once

#include "feature/feature_view.hpp"
#include "model/flash_tiles/flash_tiles_feature.hpp"

namespace viz {

class FlashTilesFeatureView : public FeatureViewOf<model::FlashTilesFeature> {
 public:
  using FeatureViewOf::FeatureViewOf;
  const char* menu_label() const override { return "FlashAttention tiles"; }
  void draw(const PanelFrame& frame) override;
};

}  // namespace viz
