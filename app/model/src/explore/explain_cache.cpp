// Explanation cache: one entry, keyed by trace generation and cell.
#include "model/explore/explain_cache.hpp"

#include <stdexcept>

namespace model {

const attn::Explanation* ExplainCache::get(const attn::Trace& trace, const attn::Scenario& scenario,
                                           std::uint64_t generation, const attn::StageRef& stage, int row, int col) {
  if (!(valid_ && generation == generation_ && stage == stage_ && row == row_ && col == col_)) {
    valid_ = true;
    generation_ = generation;
    stage_ = stage;
    row_ = row;
    col_ = col;
    ++computations_;
    try {
      value_ = attn::explain(trace, scenario, stage, row, col);
      dial_ = rope_dial(trace, scenario, stage, row);
    } catch (const std::exception&) {
      value_.reset();  // the cell does not exist in this trace
      dial_.reset();
    }
    split_.reset();
    curves_.reset();
    // Any queries × keys grid of a head (scores to weights) is split at its
    // score; additive scores have no split (split_score refuses them).
    if (value_ && stage.head >= 0 && attn::is_query_key_grid(stage.id) && trace.score == attn::ScoreFn::Dot) {
      try {
        split_ = attn::split_score(trace, scenario, stage.head, row, col);
        if (split_->by_rope) {
          const attn::Stage* grid = trace.find(stage);
          curves_ = rope_curves(*split_->by_rope, grid ? static_cast<int>(grid->value.cols()) - 1 : split_->by_rope->distance);
        }
      } catch (const std::exception&) {
        split_.reset();
      }
    }
  }
  return value_ ? &*value_ : nullptr;
}

}  // namespace model
