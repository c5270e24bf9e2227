// Keeps the explanation of one cell (the inspected or the animated one), and
// for a score or weight why it has its value, and recomputes them only when
// the cell or the trace changes, so hovering costs nothing per frame and
// draw code never calls the core.
#pragma once

#include <cstdint>
#include <optional>

#include "attn/explain/explain.hpp"
#include "attn/why/score_split.hpp"
#include "model/explore/rope_curves.hpp"
#include "model/explore/rope_dial.hpp"

namespace model {

class ExplainCache {
 public:
  // The explanation of (stage, row, col) in the trace of `generation`, or
  // null when there is no such cell (e.g. it vanished after a resize).
  const attn::Explanation* get(const attn::Trace& trace, const attn::Scenario& scenario, std::uint64_t generation,
                               const attn::StageRef& stage, int row, int col);
  // The RoPE dial of the same cell's row, when it is a rotated query or key.
  const RopeDial* dial() const { return valid_ && dial_ ? &*dial_ : nullptr; }
  // Why the same cell's score has its value (by dimension, by rotary pair),
  // when it is a cell of a head's queries × keys grid with dot-product scores.
  const attn::ScoreSplit* split() const { return valid_ && split_ ? &*split_ : nullptr; }
  // With RoPE, each pair's term over every distance the scene has.
  const RopeCurves* curves() const { return valid_ && curves_ ? &*curves_ : nullptr; }
  void clear() { valid_ = false; }
  int computations() const { return computations_; }  // for tests

 private:
  std::optional<attn::Explanation> value_;
  std::optional<RopeDial> dial_;
  std::optional<attn::ScoreSplit> split_;
  std::optional<RopeCurves> curves_;
  attn::StageRef stage_;
  int row_ = -1, col_ = -1;
  std::uint64_t generation_ = 0;
  bool valid_ = false;
  int computations_ = 0;
};

}  // namespace model
