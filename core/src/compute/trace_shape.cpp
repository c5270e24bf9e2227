// The stages compute_trace makes (compute.cpp, head_stages.cpp), listed
// from the dimensions: the same kinds, heads and order. Which stages a scene
// has is decided here; each one's shape is its rule in the stage table.
// tests/core/test_trace_shape.cpp holds the two to each other over every
// option, so a stage added to the pipeline and not here fails there.
#include "attn/compute/trace_shape.hpp"

namespace attn {
namespace {

void add(TraceShape& t, StageKind kind, int head) {
  const ShapeRule shape = shape_of(kind, t.dims);
  t.stages.push_back({kind, head, shape.rows, shape.cols});
}

// X, or the context: raw + positional encoding when sinusoidal.
void add_sequence(TraceShape& t, StageKind raw, StageKind pe, StageKind sum, bool sinusoidal) {
  if (sinusoidal) {
    add(t, raw, -1);
    add(t, pe, -1);
  }
  add(t, sum, -1);
}

void add_head(TraceShape& t, const Scenario& s, int h) {
  using K = StageKind;
  // A head that shares its group's keys and values has no K or V of its own.
  const bool own_kv = !t.dims.shares_kv(h);
  if (t.dims.projected) {
    add(t, K::w_q, h);
    if (own_kv)
      for (K w : {K::w_k, K::w_v}) add(t, w, h);
  }
  add(t, K::q, h);
  if (own_kv)
    for (K p : {K::k, K::v}) add(t, p, h);
  if (s.rope.on) {
    add(t, K::q_rope, h);
    if (own_kv) add(t, K::k_rope, h);
  }
  add(t, K::scores, h);
  add(t, K::scaled, h);
  if (s.positional == Positional::Alibi) {
    add(t, K::alibi, h);
    add(t, K::biased, h);
  }
  add(t, K::masked, h);
  if (s.mask_mode == MaskMode::AfterSoftmax) add(t, K::softmax, h);
  add(t, K::weights, h);
  add(t, K::head_output, h);
}

}  // namespace

const StageShape* TraceShape::find(StageKind id, int head) const {
  for (const StageShape& s : stages)
    if (s.id == id && s.head == head) return &s;
  return nullptr;
}

const StageShape* TraceShape::find_named(std::string_view name, int head) const {
  const std::optional<StageKind> kind = stage_kind_named(name);
  return kind ? find(*kind, head) : nullptr;
}

TraceShape trace_shape(const Scenario& s) {
  TraceShape t;
  t.dims = dims_of(s);
  const bool sinusoidal = s.positional == Positional::Sinusoidal;
  add_sequence(t, StageKind::x_raw, StageKind::pe, StageKind::x, sinusoidal);
  if (s.context) add_sequence(t, StageKind::context_raw, StageKind::pe_context, StageKind::context, sinusoidal);
  for (int h = 0; h < t.dims.n_heads; ++h) add_head(t, s, h);
  add(t, StageKind::concat, -1);
  if (s.w_o) add(t, StageKind::w_o, -1);
  add(t, StageKind::output, -1);
  return t;
}

}  // namespace attn
