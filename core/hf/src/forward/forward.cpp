// The forward pass of a checkpoint (forward.hpp): embeddings, every layer's
// attention and MLP with its norms, and the logits, in float32 or float64,
// keeping the details a caller asks for.
#include "attn/hf/forward/forward.hpp"

#include <algorithm>
#include <cmath>

#include "attn/hf/model_error.hpp"
#include "attn/compute/rope.hpp"
#include "attn/execution/parallel.hpp"
#include "forward/attention_input.hpp"
#include "forward/block_math.hpp"
#include "forward/layer_attention.hpp"
#include "forward/layer_weights.hpp"

namespace attn::hf {

namespace {


using detail::RowX;

void check_inputs(const ModelConfig& c, const std::vector<int>& ids, const ForwardOptions& o) {
  if (ids.empty()) throw ModelError("no tokens to run the model on");
  if (static_cast<long long>(ids.size()) > c.max_positions)
    throw ModelError(std::to_string(ids.size()) + " tokens, but this " + c.family_name() + " model has positions for " +
                     std::to_string(c.max_positions));
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || ids[i] >= c.vocab)
      throw ModelError("token " + std::to_string(i) + " has id " + std::to_string(ids[i]) + ", outside the vocabulary of " +
                       std::to_string(c.vocab));
  std::vector<HeadRef> named = o.heads_off;
  for (const HeadPatch& p : o.patches) named.push_back(p.head);
  for (const auto& h : named)
    if (h.layer < 0 || h.layer >= c.n_layers || h.head < 0 || h.head >= c.n_heads)
      throw ModelError("head " + std::to_string(h.layer) + "." + std::to_string(h.head) + " does not exist (the model has " +
                       std::to_string(c.n_layers) + " layers of " + std::to_string(c.n_heads) + " heads)");
  if (o.final_row >= static_cast<int>(ids.size()))
    throw ModelError("position " + std::to_string(o.final_row) + " is outside the text of " + std::to_string(ids.size()) +
                     " tokens");
  for (const HeadPatch& p : o.patches)
    if (!p.output || p.output->rows() != static_cast<Eigen::Index>(ids.size()) || p.output->cols() != c.head_dim)
      throw ModelError("the patch for head " + std::to_string(p.head.layer) + "." + std::to_string(p.head.head) +
                       " is not " + std::to_string(ids.size()) + " x " + std::to_string(c.head_dim) +
                       " (the text's tokens x the head's width)");
}

template <class S>
MatX<S> embed(const Checkpoint& ck, const detail::EmbeddingTensors& e, const std::vector<int>& ids) {
  const auto& c = ck.config();
  MatX<S> x = detail::load_rows<S>(e.tokens, c.d_model, ids);
  // Gemma scales the embeddings by sqrt(d_model), rounded to the pass's precision as transformers does.
  if (c.embed_scale != 1) x *= static_cast<S>(c.embed_scale);
  if (e.positions.info) {
    std::vector<int> positions(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) positions[i] = static_cast<int>(i);
    x += detail::load_rows<S>(e.positions, c.d_model, positions);
  }
  if (e.types.info) {  // every token is segment 0: one sentence
    const MatX<S> type0 = detail::load_rows<S>(e.types, c.d_model, {0});
    x.rowwise() += type0.row(0);
  }
  if (e.embed_norm_w.info)
    x = detail::layer_norm<S>(x, detail::load_vector<S>(e.embed_norm_w), detail::load_vector<S>(e.embed_norm_b),
                              c.norm_eps);
  return x;
}

template <class S>
MatX<S> mlp(const ModelConfig& c, const detail::LayerWeights<S>& w, const MatX<S>& x, int threads) {
  MatX<S> up = detail::affine<S>(x, w.w_up, w.b_up, threads);
  if (c.activation == Activation::SiluGated || c.activation == Activation::GeluTanhGated) {
    MatX<S> gate = detail::affine<S>(x, w.w_gate, w.b_gate, threads);
    detail::activate(gate, c.activation);
    up = gate.cwiseProduct(up);
  } else {
    detail::activate(up, c.activation);
  }
  return detail::affine<S>(up, w.w_down, w.b_down, threads);
}

// Rows [first, first + count) of each of `passes` blocks of `rows` rows.
template <class S>
MatX<S> rows_each(const MatX<S>& m, int passes, int rows, int first, int count) {
  if (passes == 1) return m.middleRows(first, count);
  MatX<S> out(passes * count, m.cols());
  for (int b = 0; b < passes; ++b) out.middleRows(b * count, count) = m.middleRows(b * rows + first, count);
  return out;
}

// Layers `first` to the end (or o.stop_after_layer) on `h`, the residual
// stream entering `first`, appending their records to `r`: the body of a
// pass from the embeddings and of one resumed from a kept input. `h` may
// hold several passes over the same number of tokens, one under the other
// (`patches` has one list per pass): every product then runs on all their
// rows at once, attention within each pass, and nothing per layer is kept.
template <class S>
void run_layers(const Checkpoint& ck, const detail::EmbeddingTensors& e, const ForwardOptions& o, const LayerSink<S>& sink,
                int first, MatX<S> h, ForwardResult<S>& r, const std::vector<std::vector<HeadPatch>>& patches) {
  const ModelConfig& c = ck.config();
  const int threads = o.max_threads > 0 ? o.max_threads : 1024;  // the pool caps it at the CPUs we have
  const int passes = static_cast<int>(patches.size());
  const int n = static_cast<int>(h.rows()) / passes;
  r.first_layer = first;
  const Rope rope = detail::checkpoint_rope(c);
  for (int l = first; l < c.n_layers; ++l) {
    const detail::LayerWeights<S> w = detail::load_layer<S>(ck, l);  // streamed: one layer in memory at a time
    LayerRecord<S> rec;
    const bool details = o.keep_details && !(o.details_of_last_layer_only && l != o.stop_after_layer);
    if (details || o.keep_inputs) rec.input = h;
    std::vector<bool> off(static_cast<std::size_t>(c.n_heads), false);
    for (const auto& hr : o.heads_off)
      if (hr.layer == l) off[static_cast<std::size_t>(hr.head)] = true;
    // With final_row, the last layer asks with that query alone: no later
    // row can reach it (causal), and nothing after this layer mixes rows.
    const bool one_row = o.final_row >= 0 && l == c.n_layers - 1 && o.stop_after_layer < 0 && !details &&
                         c.causal && c.pre_norm && std::find(off.begin(), off.end(), true) == off.end();
    const int q0 = one_row ? o.final_row : 0;
    const int nk = one_row ? q0 + 1 : n, nq = one_row ? 1 : n;  // each pass's keys and queries
    if (one_row) h = rows_each(h, passes, n, 0, nk);
    const MatX<S> a_in = detail::attention_input<S>(c, w, h);
    MatX<S> q = detail::affine<S>(one_row ? rows_each(a_in, passes, nk, q0, 1) : a_in, w.w_q, w.b_q, threads);
    MatX<S> k = detail::affine<S>(a_in, w.w_k, w.b_k, threads);
    const MatX<S> v = detail::affine<S>(a_in, w.w_v, w.b_v, threads);
    for (int b = 0; b < passes && c.rope; ++b) {  // positions count from 0 in every pass
      auto qb = q.middleRows(b * nq, nq);
      auto kb = k.middleRows(b * nk, nk);
      rotate_rope_rows(qb, rope, c.n_heads, q0);
      rotate_rope_rows(kb, rope, c.n_kv_heads);
    }
    const detail::AttentionShape shape{c.n_heads, c.n_kv_heads, c.head_dim, c.causal,
                                       c.window_at(l), c.score_divisor(l), q0, c.attn_softcap};
    MatX<S> concat;
    if (passes == 1) {
      concat = detail::multi_head_attention<S>(q, k, v, shape, off, o.mode, o.keep_attentions, rec.attentions, threads);
    } else {
      concat.resize(passes * nq, c.n_heads * c.head_dim);
      std::vector<AttentionMap<S>> unkept;
      for (int b = 0; b < passes; ++b)
        concat.middleRows(b * nq, nq) = detail::multi_head_attention<S>(
            q.middleRows(b * nq, nq), k.middleRows(b * nk, nk), v.middleRows(b * nk, nk), shape, off, o.mode, false, unkept,
            threads);
    }
    for (int b = 0; b < passes; ++b)
      for (const HeadPatch& p : patches[static_cast<std::size_t>(b)])
        if (p.head.layer == l)
          concat.block(b * nq, p.head.head * c.head_dim, nq, c.head_dim) = p.output->middleRows(q0, nq).template cast<S>();
    const MatX<S> attn_out = detail::affine<S>(concat, w.w_o, w.b_o, threads);
    if (one_row) h = rows_each(h, passes, nk, q0, 1);
    if (c.sandwich_norms) {  // Gemma 2: each sub-block's output is normed before it joins the stream
      h += detail::family_norm<S>(c, attn_out, w.post_attn_norm_w, RowX<S>());
      h += detail::family_norm<S>(c, mlp<S>(c, w, detail::family_norm<S>(c, h, w.norm2_w, w.norm2_b), threads),
                                  w.post_mlp_norm_w, RowX<S>());
    } else if (c.pre_norm) {
      h += attn_out;
      h += mlp<S>(c, w, detail::family_norm<S>(c, h, w.norm2_w, w.norm2_b), threads);
    } else {  // BERT: add, then norm, around each sub-block
      h = detail::layer_norm<S>(h + attn_out, w.norm1_w, w.norm1_b, c.norm_eps);
      h = detail::layer_norm<S>(h + mlp<S>(c, w, h, threads), w.norm2_w, w.norm2_b, c.norm_eps);
    }
    if (details) {
      rec.attn_input = a_in;
      for (int hh = 0; hh < c.n_heads; ++hh) rec.head_outputs.push_back(concat.middleCols(hh * c.head_dim, c.head_dim));
      rec.attn_output = attn_out;
      rec.output = h;
    }
    // A weight of NaN or infinity (or a product past float's range) would
    // reach every later number and show as blank heads and "nan%".
    if (!h.allFinite())
      throw ModelError("layer " + std::to_string(l) + " gives numbers that are not finite: its weights hold NaN or "
                       "infinity, or its products overflow " + (sizeof(S) == 4 ? "float32" : "float64"));
    if (sink) sink(l, rec);
    r.layers.push_back(std::move(rec));
    w.release();  // the layer's weights leave memory (the file keeps them)
    ck.check_unchanged();
    if (o.progress && !o.progress(l + 1)) {
      r.cancelled = true;
      return;
    }
    if (l == o.stop_after_layer) return;
  }
  if (e.final_norm_w.info) {
    const RowX<S> b = e.final_norm_b.info ? detail::load_vector<S>(e.final_norm_b) : RowX<S>();
    h = detail::family_norm<S>(c, h, detail::load_vector<S>(e.final_norm_w), b);
  }
  if (!h.allFinite()) throw ModelError("the final norm gives numbers that are not finite: its weights hold NaN or infinity");
  ck.check_unchanged();
  r.final = std::move(h);
}

}  // namespace

template <class S>
ForwardResult<S> run_forward(const Checkpoint& ck, const std::vector<int>& ids, const ForwardOptions& o) {
  return run_forward<S>(ck, ids, o, LayerSink<S>());
}

template <class S>
ForwardResult<S> run_forward(const Checkpoint& ck, const std::vector<int>& ids, const ForwardOptions& o,
                             const LayerSink<S>& sink) {
  check_inputs(ck.config(), ids, o);
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  ForwardResult<S> r;
  r.ids = ids;
  MatX<S> h = embed<S>(ck, e, ids);
  if (!h.allFinite())
    throw ModelError("the embeddings of this text are not finite numbers: the embedding table holds NaN or infinity");
  r.embeddings = h;
  run_layers<S>(ck, e, o, sink, 0, std::move(h), r, {o.patches});
  return r;
}

template <class S>
ForwardResult<S> resume_forward(const Checkpoint& ck, const ForwardResult<S>& earlier, int layer, const ForwardOptions& o,
                                const LayerSink<S>& sink) {
  check_inputs(ck.config(), earlier.ids, o);
  if (layer < 0 || layer >= static_cast<int>(earlier.layers.size()) ||
      earlier.layers[static_cast<std::size_t>(layer)].input.size() == 0)
    throw ModelError("the earlier pass kept no input for layer " + std::to_string(layer) + " to resume from");
  std::vector<HeadRef> changed = o.heads_off;
  for (const HeadPatch& p : o.patches) changed.push_back(p.head);
  for (const HeadRef& off : changed)
    if (off.layer < layer)
      throw ModelError("head " + std::to_string(off.layer) + "." + std::to_string(off.head) +
                       " is switched off or patched before layer " + std::to_string(layer) + ", where the pass would resume");
  ForwardResult<S> r;
  r.ids = earlier.ids;
  r.embeddings = earlier.embeddings;
  r.layers.resize(static_cast<std::size_t>(layer));
  run_layers<S>(ck, detail::embedding_tensors(ck), o, sink, layer, earlier.layers[static_cast<std::size_t>(layer)].input, r,
                {o.patches});
  return r;
}

template <class S>
std::vector<MatX<S>> resume_forward_batch(const Checkpoint& ck, const std::vector<int>& ids, int layer,
                                          const std::vector<MatX<S>>& inputs,
                                          const std::vector<std::vector<HeadPatch>>& patches, const ForwardOptions& o) {
  const ModelConfig& c = ck.config();
  const int n = static_cast<int>(ids.size());
  if (inputs.empty() || inputs.size() != patches.size())
    throw ModelError("a batch of passes needs one input and one list of patches per pass");
  if (layer < 0 || layer >= c.n_layers) throw ModelError("no layer " + std::to_string(layer) + " to resume at");
  if (o.keep_attentions || o.keep_details || o.keep_inputs || o.stop_after_layer >= 0)
    throw ModelError("a batch of passes keeps nothing per layer and runs to the end");
  MatX<S> h(static_cast<Eigen::Index>(inputs.size()) * n, c.d_model);
  for (std::size_t b = 0; b < inputs.size(); ++b) {
    if (inputs[b].rows() != n || inputs[b].cols() != c.d_model)
      throw ModelError("pass " + std::to_string(b) + "'s input is not " + std::to_string(n) + " x " +
                       std::to_string(c.d_model));
    ForwardOptions one = o;
    one.patches = patches[b];
    check_inputs(c, ids, one);
    for (const HeadPatch& p : patches[b])
      if (p.head.layer < layer)
        throw ModelError("head " + std::to_string(p.head.layer) + "." + std::to_string(p.head.head) +
                         " is patched before layer " + std::to_string(layer) + ", where the passes resume");
    h.middleRows(static_cast<Eigen::Index>(b) * n, n) = inputs[b];
  }
  ForwardResult<S> r;
  run_layers<S>(ck, detail::embedding_tensors(ck), o, LayerSink<S>(), layer, std::move(h), r, patches);
  const Eigen::Index rows = r.final.rows() / static_cast<Eigen::Index>(inputs.size());
  std::vector<MatX<S>> out;
  for (std::size_t b = 0; b < inputs.size(); ++b) out.push_back(r.final.middleRows(static_cast<Eigen::Index>(b) * rows, rows));
  return out;
}

void check_tensors(const Checkpoint& ck) {
  detail::embedding_tensors(ck);
  // Each layer's tensors found, typed and shaped as the config implies;
  // F32 weights are served from the mapping, so this reads little of them.
  for (int l = 0; l < ck.config().n_layers; ++l) detail::load_layer<float>(ck, l).release();
  ck.check_unchanged();
}

template <class S>
std::vector<S> logits_at(const Checkpoint& ck, const ForwardResult<S>& r, int position) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  if (!e.lm_head.info) throw ModelError(c.family_name() + " has no next-token head here (it is not a causal model)");
  if (position < 0 || position >= r.final.rows()) throw ModelError("position " + std::to_string(position) + " is outside the text");
  // One output row at a time from the mapping: the whole table would be
  // vocab x d converted copies (150 MB for GPT-2 in float).
  std::vector<S> logits(static_cast<std::size_t>(c.vocab));
  const RowX<S> hidden = r.final.row(position);
  constexpr int kRows = 256;
  const int blocks = (c.vocab + kRows - 1) / kRows;
  parallel_for(blocks, 1024, static_cast<double>(kRows) * c.d_model, [&](int b) {
    RowX<S> row(c.d_model);
    for (int v = b * kRows; v < std::min(c.vocab, (b + 1) * kRows); ++v) {
      detail::convert_elements(e.lm_head, static_cast<std::size_t>(v) * c.d_model, static_cast<std::size_t>(c.d_model),
                               row.data());
      logits[static_cast<std::size_t>(v)] = detail::capped_logit(c, row.dot(hidden));
    }
  });
  ck.check_unchanged();
  for (S l : logits)
    if (!std::isfinite(static_cast<double>(l)))
      throw ModelError("the next-token scores are not finite: the output head's weights hold NaN or infinity");
  return logits;
}

template <class S>
MatX<S> logits_of(const Checkpoint& ck, const MatX<S>& hidden) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  if (!e.lm_head.info) throw ModelError(c.family_name() + " has no next-token head here (it is not a causal model)");
  if (hidden.rows() == 0) throw ModelError("the forward pass has no final hidden state");
  if (hidden.cols() != c.d_model)
    throw ModelError("a hidden state of width " + std::to_string(hidden.cols()) + " meets an output head of width " +
                     std::to_string(c.d_model));
  MatX<S> logits(hidden.rows(), c.vocab);
  constexpr int kRows = 256;
  const int blocks = (c.vocab + kRows - 1) / kRows;
  parallel_for(blocks, 1024, static_cast<double>(kRows) * c.d_model * hidden.rows(), [&](int b) {
    const int v0 = b * kRows, rows = std::min(kRows, c.vocab - v0);
    Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> head(rows, c.d_model);
    detail::convert_elements(e.lm_head, static_cast<std::size_t>(v0) * c.d_model,
                             static_cast<std::size_t>(rows) * c.d_model, head.data());
    logits.middleCols(v0, rows).noalias() = hidden * head.transpose();
    if (c.final_softcap > 0) logits.middleCols(v0, rows) = logits.middleCols(v0, rows).unaryExpr([&](S l) { return detail::capped_logit(c, l); });
  });
  ck.check_unchanged();
  if (!logits.allFinite()) throw ModelError("the next-token scores are not finite: the output head's weights hold NaN or infinity");
  return logits;
}

template <class S>
MatX<S> all_logits(const Checkpoint& ck, const ForwardResult<S>& r) {
  return logits_of(ck, r.final);
}

template <class S>
std::vector<Prediction> top_predictions(const std::vector<S>& logits, int k) {
  if (logits.empty()) return {};
  const double top = static_cast<double>(*std::max_element(logits.begin(), logits.end()));
  double sum = 0;
  for (S l : logits) sum += std::exp(static_cast<double>(l) - top);
  std::vector<int> order(logits.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  const auto kk = std::min<std::size_t>(static_cast<std::size_t>(std::max(k, 0)), order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kk), order.end(), [&](int a, int b) {
    return logits[static_cast<std::size_t>(a)] != logits[static_cast<std::size_t>(b)]
               ? logits[static_cast<std::size_t>(a)] > logits[static_cast<std::size_t>(b)]
               : a < b;
  });
  std::vector<Prediction> out;
  for (std::size_t i = 0; i < kk; ++i)
    out.push_back({order[i], std::exp(static_cast<double>(logits[static_cast<std::size_t>(order[i])]) - top) / sum});
  return out;
}

#define ATTN_HF_INSTANTIATE(S)                                                                                 \
  template ForwardResult<S> run_forward<S>(const Checkpoint&, const std::vector<int>&, const ForwardOptions&); \
  template ForwardResult<S> run_forward<S>(const Checkpoint&, const std::vector<int>&, const ForwardOptions&,    \
                                           const LayerSink<S>&);                                               \
  template ForwardResult<S> resume_forward<S>(const Checkpoint&, const ForwardResult<S>&, int, const ForwardOptions&, \
                                              const LayerSink<S>&);                                            \
  template std::vector<MatX<S>> resume_forward_batch<S>(const Checkpoint&, const std::vector<int>&, int,          \
                                                        const std::vector<MatX<S>>&,                             \
                                                        const std::vector<std::vector<HeadPatch>>&, const ForwardOptions&); \
  template std::vector<S> logits_at<S>(const Checkpoint&, const ForwardResult<S>&, int);                       \
  template MatX<S> all_logits<S>(const Checkpoint&, const ForwardResult<S>&);                                  \
  template MatX<S> logits_of<S>(const Checkpoint&, const MatX<S>&);                                            \
  template std::vector<Prediction> top_predictions<S>(const std::vector<S>&, int);
ATTN_HF_INSTANTIATE(float)
ATTN_HF_INSTANTIATE(double)
#undef ATTN_HF_INSTANTIATE

}  // namespace attn::hf
