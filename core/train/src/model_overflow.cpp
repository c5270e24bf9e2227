// Whether a model's forward pass can overflow, checked when a model file is
// opened (attn::io::parse_model), so `attn` and `attnviz` refuse it with one
// message instead of writing scenes that overflow or showing "-nan".
//
// First a bound over every input: |embed| + |positions| bounds the stream,
// and each layer grows it by at most the attention's and the MLP's largest
// output (a sum of k products is at most k times the largest factors; the
// softmax weights of a row sum to 1). Ordinary weights clear it by hundreds
// of orders of magnitude. Only a model it cannot clear is run, on inputs
// that repeat each token (and one that cycles through them), each layer
// traced by the core like any scenario, so an overflow is named as a
// scenario's is: its stage, head and cell.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "attn/compute/overflow_bound.hpp"
#include "attn/compute/trace.hpp"
#include "attn/train/model.hpp"

namespace attn::train {
namespace {

constexpr double kSafe = std::numeric_limits<double>::max() / 1024;

double max_entry(const Mat& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }
double max_entry(const Vec& v) { return v.size() ? v.cwiseAbs().maxCoeff() : 0.0; }

bool bound_clears(const Model& m) {
  const ModelConfig& c = m.config;
  const double d = c.d_model, dk = static_cast<double>(c.d_model / c.n_heads);
  double x = max_entry(m.embed) + max_entry(m.positions);
  bool ok = x <= kSafe;
  for (const LayerParams& l : m.layers) {
    double wq = 0, wk = 0, wv = 0;
    for (const HeadWeights& h : l.heads) {
      wq = std::max(wq, max_entry(h.w_q));
      wk = std::max(wk, max_entry(h.w_k));
      wv = std::max(wv, max_entry(h.w_v));
    }
    const double q = d * x * wq, k = d * x * wk, v = d * x * wv;
    const double scores = dk * q * k / std::sqrt(dk);
    double out = x + c.n_heads * dk * v * max_entry(l.w_o);  // weights · V is at most |V|
    ok = ok && q <= kSafe && k <= kSafe && v <= kSafe && scores <= kSafe && out <= kSafe;
    if (c.mlp) {
      const double pre = d * out * max_entry(l.mlp_in) + max_entry(l.mlp_in_bias);
      out += static_cast<double>(l.mlp_in.cols()) * pre * max_entry(l.mlp_out) + max_entry(l.mlp_out_bias);
      ok = ok && pre <= kSafe && out <= kSafe;
    }
    x = out;
  }
  return ok && d * x * max_entry(m.unembed) <= kSafe;
}

// The first cell of `m` that is not finite, as "[r][c]" ("" when none).
std::string first_bad_cell(const Mat& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      if (!std::isfinite(m(r, c))) return "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
  return "";
}

// Where the forward pass on `tokens` first overflows ("" when it does not).
std::string overflow_on(const Model& model, const TaskSpec& task, const std::vector<int>& tokens) {
  std::string input;
  for (int t : tokens) input += (input.empty() ? "" : " ") + token_name(task, t);
  const std::string on = "the forward pass overflows on the input \"" + input + "\"";
  const SequenceForward f = forward(model, tokens);
  for (int l = 0; l < model.config.n_layers; ++l) {
    const std::string where = on + ", layer " + std::to_string(l) + ": ";
    const Scenario s = layer_scenario(model, task, tokens, l);
    if (const std::string e = validate(s); !e.empty()) return where + "its input " + e;
    if (!proved_finite(s)) {
      try {
        (void)compute_trace(s);
      } catch (const ComputeError& e) {
        return where + e.what();
      }
    }
    // Attention was finite: the residual sum or the MLP overflowed.
    if (const std::string cell = first_bad_cell(f.residual[static_cast<size_t>(l) + 1]); !cell.empty())
      return where + "its output" + cell + " overflowed (the residual stream" +
             (model.config.mlp ? " plus the MLP" : "") + "); the weights are too large for double precision";
  }
  if (const std::string cell = first_bad_cell(f.logits); !cell.empty())
    return on + ": logits" + cell + " overflowed (logits = stream · unembed); the weights are too large for double precision";
  return "";
}

}  // namespace

std::string forward_overflow(const Model& model, const TaskSpec& task) {
  if (bound_clears(model)) return "";
  const int vocab = model.config.vocab, n = model.config.seq_len;
  std::vector<std::vector<int>> inputs;
  for (int t = 0; t < vocab; ++t) inputs.emplace_back(static_cast<size_t>(n), t);
  std::vector<int> cycle;
  for (int i = 0; i < n; ++i) cycle.push_back(i % vocab);
  inputs.push_back(cycle);
  for (const std::vector<int>& tokens : inputs)
    if (std::string e = overflow_on(model, task, tokens); !e.empty()) return e;
  return "";
}

}  // namespace attn::train
