// The logit lens (attn/hf/forward/logit_lens.hpp): each kept residual stream
// through the family's final norm and the same output head as the model's
// own logits (logits_of), one row of the grid at a time so that only
// n × vocab logits live at once (GPT-2 at 128 tokens: 26 MB in float32).
#include "attn/hf/forward/logit_lens.hpp"

#include "attn/execution/progress.hpp"
#include "attn/hf/model_error.hpp"
#include "forward/attention_input.hpp"
#include "forward/layer_weights.hpp"
#include "forward/tensor_load.hpp"

namespace attn::hf {

template <class S>
LogitLens logit_lens(const Checkpoint& ck, const ForwardResult<S>& r, int top_k,
                     const std::function<bool(int)>& progress) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  if (!e.lm_head.info) throw ModelError(c.family_name() + " has no next-token head, so it has no logit lens");
  if (static_cast<int>(r.layers.size()) != c.n_layers || r.final.rows() == 0)
    throw ModelError("the logit lens needs a forward pass through every layer");
  for (int l = 1; l < c.n_layers; ++l)
    if (r.layers[static_cast<std::size_t>(l)].input.rows() == 0)
      throw ModelError("the forward pass kept no residual stream entering layer " + std::to_string(l));
  RowX<S> norm_w, norm_b;
  if (e.final_norm_w.info) norm_w = detail::load_vector<S>(e.final_norm_w);
  if (e.final_norm_b.info) norm_b = detail::load_vector<S>(e.final_norm_b);
  LogitLens lens;
  for (int row = 0; row <= c.n_layers; ++row) {
    // The stream at this depth, through the final norm; the last row already is.
    MatX<S> hidden;
    if (row == c.n_layers) {
      hidden = r.final;
    } else {
      const MatX<S>& stream = row == 0 ? r.embeddings : r.layers[static_cast<std::size_t>(row)].input;
      hidden = e.final_norm_w.info ? detail::family_norm<S>(c, stream, norm_w, norm_b) : stream;
    }
    const MatX<S> logits = logits_of(ck, hidden);
    std::vector<std::vector<Prediction>> guesses;
    std::vector<S> one(static_cast<std::size_t>(logits.cols()));
    for (Eigen::Index t = 0; t < logits.rows(); ++t) {
      for (Eigen::Index v = 0; v < logits.cols(); ++v) one[static_cast<std::size_t>(v)] = logits(t, v);
      guesses.push_back(top_predictions(one, top_k));
    }
    lens.top.push_back(std::move(guesses));
    lens.row_names.push_back(row == 0 ? std::string("embeddings") : "after layer " + std::to_string(row - 1));
    if (progress && !progress(row + 1)) throw Cancelled();
  }
  return lens;
}

template LogitLens logit_lens<float>(const Checkpoint&, const ForwardResult<float>&, int, const std::function<bool(int)>&);
template LogitLens logit_lens<double>(const Checkpoint&, const ForwardResult<double>&, int, const std::function<bool(int)>&);

}  // namespace attn::hf
