// Field-by-field scenario comparison. Values must match exactly: round trips
// promise full precision, and the app's "edited" flag means "differs from the
// saved file", not "close to it".
#include "attn/scenario/scenario.hpp"

namespace attn {

namespace {

bool same(const Mat& a, const Mat& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.size() == 0 || a == b);
}

bool same(const BoolMat& a, const BoolMat& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.size() == 0 || a == b);
}

}  // namespace

std::string scenario_difference(const Scenario& a, const Scenario& b) {
  if (!same(a.x, b.x)) return "x differs";
  if (a.tokens != b.tokens) return "tokens differ";
  if (a.context.has_value() != b.context.has_value()) return "context presence differs";
  if (a.context && !same(*a.context, *b.context)) return "context differs";
  if (a.context_tokens != b.context_tokens) return "context_tokens differ";
  if (a.heads.size() != b.heads.size()) return "head count differs";
  for (std::size_t h = 0; h < a.heads.size(); ++h) {
    const std::string p = "heads[" + std::to_string(h) + "]";
    if (!same(a.heads[h].w_q, b.heads[h].w_q)) return p + ".w_q differs";
    if (!same(a.heads[h].w_k, b.heads[h].w_k)) return p + ".w_k differs";
    if (!same(a.heads[h].w_v, b.heads[h].w_v)) return p + ".w_v differs";
  }
  if (a.w_o.has_value() != b.w_o.has_value()) return "w_o presence differs";
  if (a.w_o && !same(*a.w_o, *b.w_o)) return "w_o differs";
  if (a.output_bias.size() != b.output_bias.size() || a.output_bias != b.output_bias) return "output_bias differs";
  if (a.scale != b.scale) return "scale differs";
  if (a.scale == ScaleMode::Temperature && a.temperature != b.temperature) return "temperature differs";
  if (a.softcap != b.softcap) return "softcap differs";
  if (a.mask != b.mask) return "mask kind differs";
  if (!same(a.custom_mask, b.custom_mask)) return "custom mask differs";
  if (a.window != b.window || a.sinks != b.sinks || a.stride != b.stride) return "mask window, sinks or stride differs";
  if (a.key_padding != b.key_padding) return "key_padding differs";
  if (a.mask_mode != b.mask_mode) return "mask_mode differs";
  if (a.score != b.score) return "score differs";
  if (a.additive.size() != b.additive.size()) return "additive count differs";
  for (std::size_t h = 0; h < a.additive.size(); ++h) {
    const std::string p = "additive[" + std::to_string(h) + "]";
    if (!same(a.additive[h].w, b.additive[h].w)) return p + ".w differs";
    if (!same(a.additive[h].u, b.additive[h].u)) return p + ".u differs";
    if (!same(Mat(a.additive[h].v), Mat(b.additive[h].v))) return p + ".v differs";
  }
  if (a.positional != b.positional) return "positional differs";
  if (a.rope != b.rope) return "rope differs";
  if (a.n_kv_heads != b.n_kv_heads) return "n_kv_heads differs";
  if (a.softmax_axis != b.softmax_axis) return "softmax_axis differs";
  return {};
}

}  // namespace attn
