// FlashTilesFeature: plays the tiles on the frame's clock and recomputes
// only when the trace, the head or the blocks change (FlashTilesModel).
#include "model/flash_tiles/flash_tiles_feature.hpp"

#include <nlohmann/json.hpp>

#include "model/document/app_state.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

void FlashTilesFeature::update(FeatureFrame& frame) {
  if (!shown_ || !frame.trace.has_trace()) return;
  if (state.playing) state.play_seconds += frame.dt;
  model_.update(frame.trace.trace(), frame.trace.generation(), frame.state.view.head, state);
}

void FlashTilesFeature::dump(nlohmann::json& out) const {
  const FlashTilesView& view = model_.view();
  out["flash"] = {{"open", shown_},
                  {"head", view.head},
                  {"block_rows", state.block_rows},
                  {"block_cols", state.block_cols},
                  {"tile", {state.tile.i, state.tile.j}},
                  {"tiles", {view.query_blocks(), view.key_blocks()}},
                  {"playing", state.playing},
                  {"max_difference", view.ok() ? nlohmann::json(view.run.max_abs_diff) : nlohmann::json(nullptr)},
                  {"error", view.error}};
}

}  // namespace model
