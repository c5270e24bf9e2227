// The stages compute_trace makes (compute.cpp, head_stages.cpp), listed
// from the dimensions: the same ids, heads and shapes in the same order.
// tests/core/test_trace_shape.cpp holds the two to each other over every
// option, so a stage added to the pipeline and not here fails there.
#include "attn/trace_shape.hpp"

namespace attn {
namespace {

// X, or the context: raw + positional encoding when sinusoidal.
void add_sequence(TraceShape& t, const std::string& id, int rows, int cols, bool sinusoidal) {
  if (sinusoidal) {
    t.stages.push_back({id + "_raw", -1, rows, cols});
    t.stages.push_back({id == "x" ? "pe" : "pe_" + id, -1, rows, cols});
  }
  t.stages.push_back({id, -1, rows, cols});
}

void add_head(TraceShape& t, const Scenario& s, int h) {
  const Dims& d = t.dims;
  if (d.projected) {
    t.stages.push_back({"w_q", h, d.d_model, d.d_k});
    t.stages.push_back({"w_k", h, d.d_ctx, d.d_k});
    t.stages.push_back({"w_v", h, d.d_ctx, d.d_v});
  }
  t.stages.push_back({"q", h, d.n_q, d.d_k});
  t.stages.push_back({"k", h, d.n_k, d.d_k});
  t.stages.push_back({"v", h, d.n_k, d.d_v});
  // Every logit and weight stage is queries × keys.
  std::vector<const char*> square = {"scores", "scaled"};
  if (s.positional == Positional::Alibi) square.insert(square.end(), {"alibi", "biased"});
  square.push_back("masked");
  if (s.mask_mode == MaskMode::AfterSoftmax) square.push_back("softmax");
  square.push_back("weights");
  for (const char* id : square) t.stages.push_back({id, h, d.n_q, d.n_k});
  t.stages.push_back({"head_output", h, d.n_q, d.d_v});
}

}  // namespace

const StageShape* TraceShape::find(const std::string& id, int head) const {
  for (const StageShape& s : stages)
    if (s.id == id && s.head == head) return &s;
  return nullptr;
}

TraceShape trace_shape(const Scenario& s) {
  TraceShape t;
  t.dims = dims_of(s);
  const Dims& d = t.dims;
  const bool sinusoidal = s.positional == Positional::Sinusoidal;
  add_sequence(t, "x", d.n_q, d.d_model, sinusoidal);
  if (s.context) add_sequence(t, "context", d.n_k, d.d_ctx, sinusoidal);
  for (int h = 0; h < d.n_heads; ++h) add_head(t, s, h);
  const int concat = d.n_heads * d.d_v;
  t.stages.push_back({"concat", -1, d.n_q, concat});
  if (s.w_o) t.stages.push_back({"w_o", -1, concat, d.d_out});
  t.stages.push_back({"output", -1, d.n_q, d.d_out});
  return t;
}

}  // namespace attn
