// Writes a computed trace as "attnviz-trace" version 1 JSON: every stage with
// its shape, labels and row-major data, plus dims and notes. Masked logits
// (-inf) become null because JSON has no infinity.
#include "attn/io/scenario_file.hpp"
#include "json/matrix_json.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

json head_json(int head) { return head < 0 ? json(nullptr) : json(head); }

json dims_json(const Dims& d) {
  return {{"n_q", d.n_q},         {"n_k", d.n_k},   {"d_model", d.d_model},
          {"d_ctx", d.d_ctx},     {"d_k", d.d_k},   {"d_v", d.d_v},
          {"n_heads", d.n_heads}, {"d_out", d.d_out}, {"projected", d.projected}};
}

json stage_json(const Stage& st) {
  json inputs = json::array();
  for (const StageRef& ref : st.inputs) inputs.push_back({{"id", name_of(ref.id)}, {"head", head_json(ref.head)}});
  json out = {{"id", name_of(st.id)},
              {"head", head_json(st.head)},
              {"rows", st.value.rows()},
              {"cols", st.value.cols()},
              {"title", st.title},
              {"formula", st.formula},
              {"kind", to_string(st.kind)},
              {"inputs", std::move(inputs)},
              {"row_labels", st.row_labels},
              {"col_labels", st.col_labels},
              {"data", matrix_rows(st.value.dense())}};
  if (st.blocked.size() != 0) out["blocked"] = flag_rows(st.blocked.mat());
  if (!st.fully_masked.empty()) out["fully_masked"] = st.fully_masked;
  return out;
}

}  // namespace

json trace_to_json(const Trace& trace) {
  json stages = json::array();
  for (const Stage& st : trace.stages) stages.push_back(stage_json(st));
  return {{"format", "attnviz-trace"},
          {"version", 1},
          {"dims", dims_json(trace.dims)},
          {"softmax_axis", trace.softmax_axis == SoftmaxAxis::Queries ? "queries" : "keys"},
          {"mask_mode", trace.mask_mode == MaskMode::AfterSoftmax ? "after_softmax" : "before_softmax"},
          {"notes", trace.notes},
          {"stages", std::move(stages)}};
}

}  // namespace attn::io
