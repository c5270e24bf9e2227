// One layer of a real model as an attnviz scene (layer_scene.hpp): its
// input, each head's slices of the projections and W_O, so the pipeline
// view recomputes exactly what the checkpoint computed.
#include "attn/hf/forward/layer_scene.hpp"

#include <cmath>

#include "attn/hf/model_error.hpp"
#include "attn/text/format_number.hpp"
#include "forward/attention_input.hpp"
#include "forward/layer_weights.hpp"

namespace attn::hf {

namespace {

// W's columns [c0, c0 + width), with the bias's entries as one more row when `bias_row`.
Mat head_slice(const detail::Weight<double>& w, const detail::RowX<double>& b, int c0, int width, bool bias_row) {
  Mat m(w.in + (bias_row ? 1 : 0), width);
  m.topRows(w.in) = w.cols(c0, width).matrix();
  if (bias_row) m.row(w.in) = b.segment(c0, width);
  return m;
}

}  // namespace

LayerScene layer_scene(const Checkpoint& ck, const ForwardResult<double>& r, int layer,
                       const std::vector<std::string>& tokens, const std::vector<HeadRef>& heads_off) {
  const ModelConfig& c = ck.config();
  if (layer < 0 || layer >= static_cast<int>(r.layers.size()))
    throw ModelError("layer " + std::to_string(layer) + " is out of range (the model has " + std::to_string(c.n_layers) +
                     " layers, 0 to " + std::to_string(c.n_layers - 1) + ")");
  const LayerRecord<double>& rec = r.layers[static_cast<std::size_t>(layer)];
  if (rec.attn_input.size() == 0 && rec.input.size() == 0)
    throw ModelError("layer_scene needs a forward pass kept with details or inputs");
  const detail::LayerWeights<double> w = detail::load_layer<double>(ck, layer);
  // A pass that kept only the layer's input (keep_inputs): its norm, by the
  // forward's own rule, is the attention input bit for bit.
  const MatX<double> x = rec.attn_input.size() > 0 ? rec.attn_input : detail::attention_input<double>(c, w, rec.input);
  LayerScene out;
  Scenario& s = out.scenario;
  const int n = static_cast<int>(x.rows()), d = c.d_model, hd = c.head_dim;
  out.bias_column = c.qkv_bias;
  s.x.resize(n, d + (out.bias_column ? 1 : 0));
  s.x.leftCols(d) = x;
  if (out.bias_column) s.x.col(d).setOnes();
  s.tokens = tokens;
  const int group = c.n_heads / c.n_kv_heads;
  for (int h = 0; h < c.n_heads; ++h) {
    HeadWeights hw;
    hw.w_q = head_slice(w.w_q, w.b_q, h * hd, hd, out.bias_column);
    if (h % group == 0) {  // the group's first head carries the shared K and V (the core's GQA layout)
      hw.w_k = head_slice(w.w_k, w.b_k, (h / group) * hd, hd, out.bias_column);
      hw.w_v = head_slice(w.w_v, w.b_v, (h / group) * hd, hd, out.bias_column);
    }
    s.heads.push_back(std::move(hw));
  }
  if (c.n_kv_heads != c.n_heads) s.n_kv_heads = c.n_kv_heads;
  s.w_o = w.w_o.matrix();
  if (w.b_o.size() > 0) s.output_bias = w.b_o.transpose();
  std::string off_note;
  for (const HeadRef& off : heads_off) {
    if (off.layer != layer || off.head < 0 || off.head >= c.n_heads) continue;
    if (rec.head_outputs.size() != static_cast<std::size_t>(c.n_heads))
      throw ModelError("layer_scene needs the head outputs of a forward pass kept with details");
    auto rows = s.w_o->middleRows(static_cast<Eigen::Index>(off.head) * hd, hd);
    // What the head's replacement adds to every output row: 0 when zeroed,
    // its mean output (every row of head_outputs is that mean) times its rows.
    const Vec added = (rec.head_outputs[static_cast<std::size_t>(off.head)].row(0) * rows).transpose();
    if (!added.isZero(0)) {
      if (s.output_bias.size() == 0) s.output_bias = Vec::Zero(s.w_o->cols());
      s.output_bias += added;
    }
    rows.setZero();
    off_note += (off_note.empty() ? "" : ", ") + std::to_string(off.head);
  }
  // The scene divides as the model does: by sqrt(d_k) as usual, or by the
  // config's own divisor (GPT-2's per-layer or unscaled scores, YaRN's
  // attention factor) as a temperature.
  const double divisor = c.score_divisor(layer);
  if (std::abs(divisor - std::sqrt(static_cast<double>(hd))) > 1e-12 * divisor) {
    s.scale = divisor == 1.0 ? ScaleMode::None : ScaleMode::Temperature;
    s.temperature = divisor;
  } else {
    s.scale = ScaleMode::SqrtDk;
  }
  s.softcap = c.attn_softcap;  // Gemma 2's cap on the scaled scores
  if (c.causal) s.mask = MaskKind::Causal;
  if (const int window = c.window_at(layer); window > 0 && window < n) {
    s.mask = MaskKind::SlidingWindow;
    s.window = window;
  }
  if (c.rope) {
    s.rope.on = true;
    s.rope.base = c.rope_theta;
    s.rope.pairing = RopePairing::Half;
    // Only a rescaled ladder is spelled out; a plain one is base^(−2i/r), as the explanations say.
    for (std::size_t i = 0; i < c.rope_inv_freq.size(); ++i)
      if (std::abs(c.rope_inv_freq[i] / std::pow(c.rope_theta, -2.0 * static_cast<double>(i) / hd) - 1) > 1e-12)
        s.rope.frequencies = c.rope_inv_freq;
  }
  out.description = c.model_type + " layer " + std::to_string(layer) + " of " + std::to_string(c.n_layers) + ": " +
                    std::to_string(c.n_heads) + " heads of width " + std::to_string(hd) +
                    (c.n_kv_heads != c.n_heads ? ", " + std::to_string(c.n_kv_heads) + " key/value heads" : "") +
                    "; computed in float64; X is the attention input after the layer's norm" +
                    (out.bias_column ? "; its last column is a constant 1 whose weights are the biases" : "") +
                    (s.output_bias.size() > 0 ? "; the output adds W_O's bias b_O" : "") +
                    (s.softcap > 0 ? "; scaled scores are soft-capped at ±" + format_number(s.softcap) : "") +
                    (off_note.empty() ? ""
                                      : "; switched off: head " + off_note +
                                            " (their rows of W_O are zero; a mean replacement joins b_O)");
  return out;
}

}  // namespace attn::hf
