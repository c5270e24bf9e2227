// Names of edits (see change_name.hpp).
#include "model/document/change_name.hpp"

#include <vector>

#include "attn/text/format_number.hpp"

namespace model {
namespace {

std::string num(double v) { return attn::format_number(v, 4); }

// "X[the, 1] 0.5 → 3" for one changed value, "W_Q (head 1): 6 values" for
// more; "" when the matrices are equal; shape changes are named elsewhere.
std::string matrix_change(const std::string& name, const attn::Mat& a, const attn::Mat& b,
                          const std::vector<std::string>* row_labels = nullptr) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return name + " " + std::to_string(a.rows()) + "×" + std::to_string(a.cols()) +
                                                           " → " + std::to_string(b.rows()) + "×" + std::to_string(b.cols());
  int changed = 0;
  Eigen::Index r0 = 0, c0 = 0;
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < a.cols(); ++c)
      if (!(a(r, c) == b(r, c)) && !(std::isnan(a(r, c)) && std::isnan(b(r, c)))) {
        if (changed++ == 0) r0 = r, c0 = c;
      }
  if (changed == 0) return "";
  if (changed > 1) return name + ": " + std::to_string(changed) + " values";
  const std::string row = row_labels && r0 < static_cast<Eigen::Index>(row_labels->size()) && !(*row_labels)[static_cast<size_t>(r0)].empty()
                              ? (*row_labels)[static_cast<size_t>(r0)]
                              : std::to_string(r0);
  return name + "[" + row + ", " + std::to_string(c0) + "] " + num(a(r0, c0)) + " → " + num(b(r0, c0));
}

const char* mask_name(attn::MaskKind m) {
  switch (m) {
    case attn::MaskKind::None: return "none";
    case attn::MaskKind::Causal: return "causal";
    case attn::MaskKind::Custom: return "painted";
    case attn::MaskKind::SlidingWindow: return "sliding window";
    case attn::MaskKind::Strided: return "strided";
  }
  return "?";
}

}  // namespace

std::string describe_change(const attn::Scenario& a, const attn::Scenario& b) {
  std::vector<std::string> parts;
  auto add = [&](std::string s) {
    if (!s.empty()) parts.push_back(std::move(s));
  };
  if (a.x.rows() != b.x.rows()) add("tokens " + std::to_string(a.x.rows()) + " → " + std::to_string(b.x.rows()));
  else if (a.x.cols() != b.x.cols()) add("d_model " + std::to_string(a.x.cols()) + " → " + std::to_string(b.x.cols()));
  else add(matrix_change("X", a.x, b.x, &b.tokens));
  if (a.x.rows() == b.x.rows() && a.tokens != b.tokens) {
    for (size_t i = 0; i < a.tokens.size() && i < b.tokens.size(); ++i)
      if (a.tokens[i] != b.tokens[i]) {
        add("token " + std::to_string(i) + " \"" + a.tokens[i] + "\" → \"" + b.tokens[i] + "\"");
        break;
      }
    if (a.tokens.size() != b.tokens.size()) add("token names");
  }
  if (a.heads.size() != b.heads.size()) {
    add("heads " + std::to_string(a.heads.size()) + " → " + std::to_string(b.heads.size()));
  } else {
    for (size_t h = 0; h < a.heads.size(); ++h) {
      const std::string head = a.heads.size() > 1 ? " (head " + std::to_string(h) + ")" : "";
      add(matrix_change("W_Q" + head, a.heads[h].w_q, b.heads[h].w_q));
      add(matrix_change("W_K" + head, a.heads[h].w_k, b.heads[h].w_k));
      add(matrix_change("W_V" + head, a.heads[h].w_v, b.heads[h].w_v));
    }
  }
  if (a.w_o.has_value() != b.w_o.has_value()) add(b.w_o ? "W_O added" : "W_O removed");
  else if (a.w_o) add(matrix_change("W_O", *a.w_o, *b.w_o));
  if (a.output_bias.size() != b.output_bias.size())
    add(b.output_bias.size() > 0 ? "b_O added" : "b_O removed");
  else if (a.output_bias.size() > 0)
    add(matrix_change("b_O", a.output_bias.transpose(), b.output_bias.transpose()));
  if (a.context.has_value() != b.context.has_value()) add(b.context ? "context added" : "context removed");
  else if (a.context) add(matrix_change("context", *a.context, *b.context, &b.context_tokens));
  if (a.scale != b.scale) add("scaling");
  else if (a.scale == attn::ScaleMode::Temperature && a.temperature != b.temperature)
    add("τ " + num(a.temperature) + " → " + num(b.temperature));
  if (a.softcap != b.softcap)
    add(a.softcap <= 0   ? "soft cap on (c = " + num(b.softcap) + ")"
        : b.softcap <= 0 ? std::string("soft cap off")
                         : "soft cap " + num(a.softcap) + " → " + num(b.softcap));
  if (a.mask != b.mask) add(std::string("mask ") + mask_name(b.mask));
  else if (a.mask == attn::MaskKind::Custom && !(a.custom_mask.rows() == b.custom_mask.rows() && a.custom_mask.cols() == b.custom_mask.cols() &&
                                                 (a.custom_mask.size() == 0 || a.custom_mask == b.custom_mask)))
    add("mask cells");
  if (a.mask == b.mask && (a.window != b.window || a.sinks != b.sinks || a.stride != b.stride)) {
    if (a.window != b.window) add("window " + std::to_string(a.window) + " → " + std::to_string(b.window));
    if (a.sinks != b.sinks) add("sinks " + std::to_string(a.sinks) + " → " + std::to_string(b.sinks));
    if (a.stride != b.stride) add("stride " + std::to_string(a.stride) + " → " + std::to_string(b.stride));
  }
  if (a.key_padding != b.key_padding) add("key padding");
  if (a.mask_mode != b.mask_mode) add("mask before/after softmax");
  if (a.score != b.score) add(b.score == attn::ScoreFn::Dot ? "score: dot product" : "score: additive");
  if (a.positional != b.positional) add("positions");
  if (a.rope.on != b.rope.on) add(b.rope.on ? "RoPE on" : "RoPE off");
  else if (a.rope != b.rope) add("RoPE settings");
  if (a.n_kv_heads != b.n_kv_heads) add("key/value heads");
  if (a.softmax_axis != b.softmax_axis) add("softmax axis");
  if (parts.empty()) return "edit";
  std::string out = parts[0];
  if (parts.size() == 2) out += ", " + parts[1];
  if (parts.size() > 2) out += " and " + std::to_string(parts.size() - 1) + " more changes";
  return out;
}

}  // namespace model
