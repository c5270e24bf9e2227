// Lookups on the stage table (attn/compute/stage_kind.hpp): names read from files
// and the command line, and shapes in terms of a scene's dimensions.
#include "attn/compute/stage_kind.hpp"

namespace attn {
namespace {

// info_of indexes the table by kind: each entry must sit at its kind's place.
constexpr bool table_in_kind_order() {
  for (std::size_t i = 0; i < kStages.size(); ++i)
    if (static_cast<std::size_t>(kStages[i].kind) != i) return false;
  return true;
}
static_assert(table_in_kind_order(), "kStages must list the stages in StageKind's order");
static_assert(kStages.size() == static_cast<std::size_t>(StageKind::step_output) + 1, "every StageKind needs an entry");

}  // namespace

std::optional<StageKind> stage_kind_named(std::string_view name) {
  for (const StageInfo& s : kStages)
    if (s.name == name) return s.kind;
  return std::nullopt;
}

int extent_of(Extent e, const Dims& d) {
  switch (e) {
    case Extent::n_q: return d.n_q;
    case Extent::n_k: return d.n_k;
    case Extent::d_model: return d.d_model;
    case Extent::d_ctx: return d.d_ctx;
    case Extent::d_k: return d.d_k;
    case Extent::d_v: return d.d_v;
    case Extent::heads_d_v: return d.n_heads * d.d_v;
    case Extent::d_out: return d.d_out;
    // A tile's size is the FlashAttention's choice, not the scene's.
    case Extent::block_rows:
    case Extent::block_cols: return 0;
    case Extent::one: return 1;
    case Extent::cached: return 0;  // t + 1 at decode step t: a property of the step, not of Dims
  }
  return 0;
}

ShapeRule shape_of(StageKind kind, const Dims& d) {
  const StageInfo& s = info_of(kind);
  return {extent_of(s.rows, d), extent_of(s.cols, d)};
}

}  // namespace attn
