// The "FlashAttention tiles" panel as a feature: what the user chose
// (blocks, tile, play) and the tiles computed for it, brought up to date
// each frame the panel is shown.
#pragma once

#include "model/feature/feature.hpp"
#include "model/flash_tiles/flash_tiles.hpp"

namespace model {

class FlashTilesFeature : public PanelFeature {
 public:
  std::string_view name() const override { return "flash_tiles"; }
  void update(FeatureFrame& frame) override;
  bool animating() const override { return shown_ && state.playing; }
  void dump(nlohmann::json& out) const override;  // "flash"

  FlashTilesState state;  // the panel edits it
  const FlashTilesModel& model() const { return model_; }

 private:
  FlashTilesModel model_;
};

}  // namespace model
