// Splits the tiny model's residual stream into its sources and one score
// over pairs of them (attn/train/score_sources.hpp). The sources come from
// the same forward_chunk the trainer runs, so they are the activations the
// model actually had.
#include "attn/train/score_sources.hpp"

#include <cmath>
#include <stdexcept>

#include "model_pass.hpp"

namespace attn::train {
namespace {

std::string layer_name(int layer) { return "L" + std::to_string(layer); }

void check_range(const char* what, int value, int count) {
  if (value < 0 || value >= count)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(value) + " is outside 0.." +
                                std::to_string(count - 1));
}

detail::ChunkActivations run(const Model& model, const std::vector<int>& tokens) {
  const ModelConfig& c = model.config;
  forward(model, tokens);  // checks the tokens, naming the first bad one
  Eigen::MatrixXi row(1, c.seq_len);
  for (int t = 0; t < c.seq_len; ++t) row(0, t) = tokens[static_cast<std::size_t>(t)];
  detail::ChunkActivations act;
  detail::forward_chunk(model, detail::pack_qkv(model), row, 0, 1, act);
  return act;
}

StreamSources sources_from(const Model& model, const std::vector<int>& tokens, const detail::ChunkActivations& act,
                           int layer) {
  const ModelConfig& c = model.config;
  const int T = c.seq_len, dk = c.d_model / c.n_heads;
  StreamSources s;
  Mat embed(T, c.d_model);
  for (int t = 0; t < T; ++t) embed.row(t) = model.embed.row(tokens[static_cast<std::size_t>(t)]);
  s.names = {"token embedding", "position"};
  s.parts = {embed, model.positions.topRows(T)};
  for (int l = 0; l < layer; ++l) {
    const LayerParams& p = model.layers[static_cast<std::size_t>(l)];
    for (int h = 0; h < c.n_heads; ++h) {
      s.names.push_back(head_source_name(l, h));
      s.parts.push_back(act.concat[l].middleCols(h * dk, dk) * p.w_o.middleRows(h * dk, dk));
    }
    if (c.mlp) {
      Mat out = act.pre[l].cwiseMax(0.0) * p.mlp_out;
      out.rowwise() += p.mlp_out_bias.transpose();
      s.names.push_back(layer_name(l) + " MLP");
      s.parts.push_back(std::move(out));
    }
  }
  return s;
}

}  // namespace

std::string head_source_name(int layer, int head) { return layer_name(layer) + " H" + std::to_string(head); }

StreamSources stream_sources(const Model& model, const std::vector<int>& tokens, int layer) {
  check_range("layer", layer, model.config.n_layers + 1);
  return sources_from(model, tokens, run(model, tokens), layer);
}

SourceSplit split_score_by_source(const Model& model, const std::vector<int>& tokens, int layer, int head,
                                  int query, int key) {
  const ModelConfig& c = model.config;
  check_range("layer", layer, c.n_layers);
  check_range("head", head, c.n_heads);
  check_range("query", query, c.seq_len);
  check_range("key", key, c.seq_len);
  if (key > query)
    throw std::invalid_argument("key " + std::to_string(key) + " comes after query " + std::to_string(query) +
                                ": the causal mask hides it, so it has no score to split");
  const detail::ChunkActivations act = run(model, tokens);
  const StreamSources s = sources_from(model, tokens, act, layer);
  const HeadWeights& w = model.layers[static_cast<std::size_t>(layer)].heads[static_cast<std::size_t>(head)];
  const int dk = c.d_model / c.n_heads;
  const auto n = static_cast<Eigen::Index>(s.parts.size());
  Mat q_parts(n, dk), k_parts(n, dk);
  for (Eigen::Index a = 0; a < n; ++a) {
    q_parts.row(a) = s.parts[static_cast<std::size_t>(a)].row(query) * w.w_q;
    k_parts.row(a) = s.parts[static_cast<std::size_t>(a)].row(key) * w.w_k;
  }
  // The score itself from the stream the layer read, as the forward pass has it.
  const Mat& x = act.x[static_cast<std::size_t>(layer)];
  const double score = (x.row(query) * w.w_q).dot(x.row(key) * w.w_k);
  return bilinear_split({layer, head, query, key}, s.names, q_parts, s.names, k_parts, score,
                        1.0 / std::sqrt(static_cast<double>(dk)));
}

}  // namespace attn::train
