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

namespace attn::hf {

namespace {

using Mat64 = MatX<double>;
using Row64 = detail::RowX<double>;

struct Sources {
  std::vector<std::string> names;
  std::vector<Mat64> parts;  // each (2, d): the query's row, then the key's
};

// Rows `a` and `b` of a matrix, as a (2, cols) matrix.
Mat64 two_rows(const Mat64& m, int a, int b) {
  Mat64 out(2, m.cols());
  out.row(0) = m.row(a);
  out.row(1) = m.row(b);
  return out;
}

// The stream entering `layer` at the query's and the key's positions, taken
// apart: Σ parts = those rows of r.layers[layer].input. Only the two rows
// are taken apart, so a split costs a few vector-matrix products a layer.
Sources stream_sources(const Checkpoint& ck, const ForwardResult<double>& r, const std::vector<int>& ids, int layer,
                       int query, int key) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  Sources s;
  s.names.push_back("token embedding");
  s.parts.push_back(detail::load_rows<double>(e.tokens, c.d_model, {ids[static_cast<std::size_t>(query)],
                                                                     ids[static_cast<std::size_t>(key)]}));
  if (e.positions.info) {
    s.names.push_back("position embedding");
    s.parts.push_back(detail::load_rows<double>(e.positions, c.d_model, {query, key}));
  }
  for (int l = 0; l < layer; ++l) {
    const LayerRecord<double>& rec = r.layers[static_cast<std::size_t>(l)];
    // In float: an F32 checkpoint's weights are served from the mapping, not
    // converted (a float64 layer converts the MLP too); every stored type
    // widens to float exactly, and each head's slice of W_O to double.
    const detail::LayerWeights<float> w = detail::load_layer<float>(ck, l);
    const std::string name = "L" + std::to_string(l);
    const detail::Weight<float>& w_o = w.w_o;
    for (int h = 0; h < c.n_heads; ++h) {
      s.names.push_back(name + " H" + std::to_string(h));
      const Mat64 out = two_rows(rec.head_outputs[static_cast<std::size_t>(h)], query, key);  // (2, hd)
      // Through this head's rows of W_O, (hd, d), read as the forward reads it.
      const Mat64 rows = w_o.transposed
                             ? Mat64(w_o.stored_t().middleCols(h * c.head_dim, c.head_dim).transpose().cast<double>())
                             : Mat64(w_o.plain().middleRows(h * c.head_dim, c.head_dim).cast<double>());
      s.parts.push_back(out * rows);
    }
    if (w.b_o.size() > 0) {
      s.names.push_back(name + " attention bias");
      Mat64 bias(2, c.d_model);
      bias.rowwise() = w.b_o.cast<double>();
      s.parts.push_back(bias);
    }
    // What the MLP added: the layer's output less what entered and what attention added.
    s.names.push_back(name + " MLP");
    s.parts.push_back(two_rows(rec.output, query, key) - two_rows(rec.input, query, key) -
                      two_rows(rec.attn_output, query, key));
    w.release();
  }
  return s;
}

// Row `row` of a part of a projection for one head, turned by RoPE at its position.
Row64 turned(Row64 v, const Rope& rope, int position) {
  if (rope.on) {
    Eigen::Matrix<double, 1, Eigen::Dynamic> m = v;
    rotate_rope_rows(m, rope, 1, position);
    v = m;
  }
  return v;
}

void check_range(const char* what, int value, int count) {
  if (value < 0 || value >= count)
    throw ModelError(std::string(what) + " " + std::to_string(value) + " is outside 0.." + std::to_string(count - 1));
}

}  // namespace

namespace {

void check_cell(const ModelConfig& c, int n, int layer, int head, int query, int key) {
  if (!c.pre_norm)
    throw ModelError(c.family_name() + " normalises the stream after each sum, so the stream is no sum of sources: "
                                       "only pre-norm models split by source");
  check_range("layer", layer, c.n_layers);
  check_range("head", head, c.n_heads);
  check_range("query", query, n);
  check_range("key", key, n);
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
  const Sources s = stream_sources(ck, r, ids, layer, query, key);
  const detail::LayerWeights<double> w = detail::load_layer<double>(ck, layer);
  const int hd = c.head_dim, kv = head / (c.n_heads / c.n_kv_heads);
  const Mat64 w_q = w.w_q.cols(head * hd, hd).matrix(), w_k = w.w_k.cols(kv * hd, hd).matrix();
  const Rope rope = detail::checkpoint_rope(c);
  const Mat64& x = r.layers[static_cast<std::size_t>(layer)].input;
  // The norm held at each token's value: its parts are linear in the stream.
  // `side` 0 is the query's row of a part, 1 the key's.
  const auto held = [&](const Mat64& part, int side) -> Row64 {
    const Row64 in = x.row(side == 0 ? query : key);
    Row64 p = part.row(side);
    if (c.norm == NormKind::RmsNorm) {
      const double rms = std::sqrt(in.squaredNorm() / static_cast<double>(in.size()) + c.norm_eps);
      return (p / rms).cwiseProduct(w.norm1_w);
    }
    const double mean = in.mean();
    const double sigma = std::sqrt((in.array() - mean).square().mean() + c.norm_eps);
    return ((p.array() - p.mean()) / sigma).matrix().cwiseProduct(w.norm1_w);
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
