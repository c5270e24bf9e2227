// A real model's score split by residual-stream source (see
// attn/hf/why/score_sources.hpp). One float64 pass to the layer keeps every
// earlier layer's details; the sources are read off them and the layer's
// norm, projections and RoPE applied to each part with the forward's own
// weights and rotation, so the parts are the forward's numbers taken apart.
#include "attn/hf/why/score_sources.hpp"

#include <cmath>
#include <string>

#include "attn/compute/masks.hpp"
#include "attn/compute/rope.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "forward/attention_input.hpp"
#include "forward/layer_weights.hpp"
#include "forward/tensor_load.hpp"
#include "why/stream_sources.hpp"

namespace attn::hf {

namespace {

using detail::Mat64;
using detail::Row64;

// A part of one head's projection at `position`, turned by RoPE as the forward turns it.
Row64 turned(Row64 v, const Rope& rope, int position) {
  if (rope.on) {
    Eigen::Matrix<double, 1, Eigen::Dynamic> m = v;
    rotate_rope_rows(m, rope, 1, position);
    v = m;
  }
  return v;
}

void check_cell(const ModelConfig& c, int n, int layer, int head, int query, int key) {
  if (!c.pre_norm)
    throw ModelError(c.family_name() + " normalises the stream after each sum, so the stream is no sum of sources: "
                                       "only pre-norm models split by source");
  detail::check_index("layer", layer, c.n_layers);
  detail::check_index("head", head, c.n_heads);
  detail::check_index("query", query, n);
  detail::check_index("key", key, n);
  const KeySpan seen = visible_keys(query, n, c.causal, c.window_at(layer));
  if (key < seen.first || key > seen.last)
    throw ModelError("query " + std::to_string(query) + " does not see key " + std::to_string(key) +
                     " in layer " + std::to_string(layer) + " (the mask hides it), so it has no score to split");
}

}  // namespace

SourceSplit split_score_by_source(const Checkpoint& ck, const std::vector<int>& ids, int layer, int head, int query,
                                  int key) {
  check_cell(ck.config(), static_cast<int>(ids.size()), layer, head, query, key);
  ForwardOptions o;
  o.keep_attentions = false;
  o.keep_details = true;
  o.stop_after_layer = layer;
  return split_score_by_source(ck, run_forward<double>(ck, ids, o), layer, head, query, key);
}

SourceSplit split_score_by_source(const Checkpoint& ck, const ForwardResult<double>& r, int layer, int head, int query,
                                  int key) {
  const ModelConfig& c = ck.config();
  const std::vector<int>& ids = r.ids;
  check_cell(c, static_cast<int>(ids.size()), layer, head, query, key);
  for (int l = 0; l <= layer; ++l)
    if (l >= static_cast<int>(r.layers.size()) || r.layers[static_cast<std::size_t>(l)].attn_input.rows() == 0)
      throw ModelError("the forward pass kept no details of layer " + std::to_string(l) + " to split a score of layer " +
                       std::to_string(layer) + " with");
  const detail::Sources s = detail::stream_sources(ck, r, layer, query, key);
  const detail::LayerWeights<double> w = detail::load_layer<double>(ck, layer);
  const int hd = c.head_dim, kv = head / (c.n_heads / c.n_kv_heads);
  const Mat64 w_q = w.w_q.cols(head * hd, hd).matrix(), w_k = w.w_k.cols(kv * hd, hd).matrix();
  const Rope rope = detail::checkpoint_rope(c);
  const Mat64& x = r.layers[static_cast<std::size_t>(layer)].input;
  // The norm held at each token's value: its parts are linear in the stream.
  // `side` 0 is the query's row of a part, 1 the key's.
  const auto held = [&](const Mat64& part, int side) -> Row64 {
    return detail::held_by_norm(c, x.row(side == 0 ? query : key), part.row(side), w.norm1_w);
  };
  std::vector<std::string> q_names = s.names, k_names = s.names;
  std::vector<Row64> q_rows, k_rows;
  for (const Mat64& part : s.parts) {
    q_rows.push_back(turned(held(part, 0) * w_q, rope, query));
    k_rows.push_back(turned(held(part, 1) * w_k, rope, key));
  }
  if (w.norm1_b.size() > 0) {
    q_names.push_back("norm bias");
    q_rows.push_back(turned(w.norm1_b * w_q, rope, query));
    k_names.push_back("norm bias");
    k_rows.push_back(turned(w.norm1_b * w_k, rope, key));
  }
  if (w.b_q.size() > 0) {
    q_names.push_back("query bias");
    q_rows.push_back(turned(w.b_q.segment(head * hd, hd), rope, query));
  }
  if (w.b_k.size() > 0) {
    k_names.push_back("key bias");
    k_rows.push_back(turned(w.b_k.segment(kv * hd, hd), rope, key));
  }
  Mat64 q_parts(static_cast<Eigen::Index>(q_rows.size()), hd), k_parts(static_cast<Eigen::Index>(k_rows.size()), hd);
  for (std::size_t i = 0; i < q_rows.size(); ++i) q_parts.row(static_cast<Eigen::Index>(i)) = q_rows[i];
  for (std::size_t i = 0; i < k_rows.size(); ++i) k_parts.row(static_cast<Eigen::Index>(i)) = k_rows[i];
  // The score as the forward has it: the layer's attention input projected and turned.
  const Mat64& a = r.layers[static_cast<std::size_t>(layer)].attn_input;
  Row64 q = a.row(query) * w_q, k = a.row(key) * w_k;
  if (w.b_q.size() > 0) q += w.b_q.segment(head * hd, hd);
  if (w.b_k.size() > 0) k += w.b_k.segment(kv * hd, hd);
  const double score = turned(q, rope, query).dot(turned(k, rope, key));
  const double divisor = c.score_divisor(layer);
  w.release();
  return bilinear_split({layer, head, query, key}, q_names, q_parts, k_names, k_parts, score, 1.0 / divisor);
}

}  // namespace attn::hf
