// float32 against float64, one layer at a time through a LayerSink (precision_gap.hpp).
#include "attn/hf/forward/precision_gap.hpp"

#include <cmath>

#include "attn/hf/model_error.hpp"

namespace attn::hf {

PrecisionGap float_precision_gap(const Checkpoint& ck, const ForwardResult<float>& f32,
                                 const std::vector<HeadRef>& heads_off, AblationMode mode,
                                 const std::function<bool(int)>& progress, ForwardResult<double>* pass) {
  PrecisionGap gap;
  ForwardOptions o;
  o.heads_off = heads_off;
  o.mode = mode;
  o.keep_attentions = true;
  o.progress = progress;
  o.keep_inputs = pass != nullptr;
  const LayerSink<double> compare = [&](int l, LayerRecord<double>& rec) {
    if (l >= static_cast<int>(f32.layers.size())) return;
    const auto& ours = f32.layers[static_cast<std::size_t>(l)].attentions;
    if (ours.size() != rec.attentions.size()) throw ModelError("the float32 pass kept no attention weights to compare");
    for (std::size_t h = 0; h < ours.size(); ++h) {
      const AttentionMap<double>& ref = rec.attentions[h];
      for (Eigen::Index i = 0; i < ref.rows(); ++i)
        for (Eigen::Index j = 0; j < ref.cols(); ++j) {
          const double d = std::abs(static_cast<double>(ours[h](i, j)) - ref(i, j));
          if (gap.layer < 0 || d > gap.max_abs)
            gap = {d, l, static_cast<int>(h), static_cast<int>(i), static_cast<int>(j), false};
        }
    }
    rec.attentions.clear();  // compared: one layer's float64 weights at a time
  };
  ForwardResult<double> r = run_forward<double>(ck, f32.ids, o, compare);
  gap.cancelled = r.cancelled;
  if (pass) *pass = std::move(r);
  return gap;
}

}  // namespace attn::hf
