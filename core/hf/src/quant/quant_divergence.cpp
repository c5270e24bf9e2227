// Each head's attention rows of two checkpoints compared (quant_divergence.hpp).
#include "attn/hf/quant/quant_divergence.hpp"

#include <cmath>

#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"

namespace attn::hf {

double js_divergence_bits(const double* p, const double* q, long n) {
  // 1/2 KL(p || m) + 1/2 KL(q || m), m the average; a zero weight adds nothing.
  double sum = 0;
  for (long i = 0; i < n; ++i) {
    const double m = 0.5 * (p[i] + q[i]);
    if (p[i] > 0) sum += 0.5 * p[i] * std::log2(p[i] / m);
    if (q[i] > 0) sum += 0.5 * q[i] * std::log2(q[i] / m);
  }
  return std::max(0.0, sum);  // rounding can leave -1e-17
}

QuantDivergence quant_divergence(const Checkpoint& quantized, const Checkpoint& reference, const std::vector<int>& ids,
                                 const std::function<bool(int)>& progress) {
  const ModelConfig &a = quantized.config(), &b = reference.config();
  if (a.n_layers != b.n_layers || a.n_heads != b.n_heads || a.vocab != b.vocab || a.d_model != b.d_model)
    throw ModelError("the two are not the same model: " + std::to_string(a.n_layers) + " layers of " +
                     std::to_string(a.n_heads) + " heads, width " + std::to_string(a.d_model) + ", " + std::to_string(a.vocab) +
                     " tokens against " + std::to_string(b.n_layers) + " of " + std::to_string(b.n_heads) + ", width " +
                     std::to_string(b.d_model) + ", " + std::to_string(b.vocab));
  QuantDivergence out;
  out.ids = ids;
  out.n_layers = a.n_layers;
  out.n_heads = a.n_heads;
  ForwardResult<double> rq = run_forward<double>(quantized, ids);
  if (progress && !progress(1)) {
    out.cancelled = true;
    return out;
  }
  // The reference pass is compared layer by layer as it goes, and both
  // layers' weights are dropped then: only one pass's attentions are held.
  const LayerSink<double> compare = [&](int l, LayerRecord<double>& record) {
    std::vector<AttentionMap<double>>& quantized_layer = rq.layers[static_cast<std::size_t>(l)].attentions;
    for (int h = 0; h < a.n_heads; ++h) {
      const AttentionMap<double>& x = quantized_layer[static_cast<std::size_t>(h)];
      const AttentionMap<double>& y = record.attentions[static_cast<std::size_t>(h)];
      HeadDivergence d{l, h, 0, 0, 0};
      for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const double js = js_divergence_bits(x.row(r).data(), y.row(r).data(), static_cast<long>(x.cols()));
        d.mean += js;
        if (js > d.worst) d.worst = js, d.worst_row = static_cast<int>(r);
      }
      d.mean /= static_cast<double>(std::max<Eigen::Index>(1, x.rows()));
      out.heads.push_back(d);
    }
    quantized_layer.clear();
    record.attentions.clear();
  };
  run_forward<double>(reference, ids, ForwardOptions{}, compare);
  if (progress) progress(2);
  return out;
}

}  // namespace attn::hf
