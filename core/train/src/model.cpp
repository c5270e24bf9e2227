// The tiny attention model's shapes, initialisation, parameter list, the
// single-sequence forward pass and the view of one layer as a scenario.
#include "attn/train/model.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "model_pass.hpp"
#include "compute/positions/positional.hpp"  // core's sinusoidal table, so both show the same positions

namespace attn::train {
namespace {

constexpr int kMaxWidth = 1024;
constexpr int kMaxSeqLen = 4096;

int mlp_width(const ModelConfig& c) { return c.d_mlp > 0 ? c.d_mlp : 4 * c.d_model; }

// Standard normal from the raw generator output (Box-Muller), identical on
// every standard library, unlike std::normal_distribution.
class NormalSource {
 public:
  explicit NormalSource(std::uint64_t seed) : rng_(seed) {}
  Mat matrix(int rows, int cols, double stddev) {
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m(i) = stddev * next();
    return m;
  }

 private:
  double uniform_open() {  // in (0, 1)
    return (static_cast<double>(rng_() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  }
  double next() {
    const double r = std::sqrt(-2.0 * std::log(uniform_open()));
    return r * std::cos(6.283185307179586 * uniform_open());
  }
  std::mt19937_64 rng_;
};

std::string out_of_range(const std::string& field, int value, int lo, int hi) {
  return field + ": " + std::to_string(value) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi);
}

}  // namespace

std::string validate_config(const ModelConfig& c) {
  if (c.vocab < 1 || c.vocab > kMaxWidth) return out_of_range("vocab", c.vocab, 1, kMaxWidth);
  if (c.seq_len < 1 || c.seq_len > kMaxSeqLen) return out_of_range("seq_len", c.seq_len, 1, kMaxSeqLen);
  if (c.d_model < 1 || c.d_model > kMaxWidth) return out_of_range("d_model", c.d_model, 1, kMaxWidth);
  if (c.n_heads < 1 || c.n_heads > c.d_model) return out_of_range("n_heads", c.n_heads, 1, c.d_model);
  if (c.d_model % c.n_heads != 0)
    return "n_heads: " + std::to_string(c.n_heads) + " does not divide d_model " + std::to_string(c.d_model);
  if (c.n_layers < 1 || c.n_layers > 2) return out_of_range("n_layers", c.n_layers, 1, 2);
  if (c.d_mlp < 0 || c.d_mlp > 4 * kMaxWidth)
    return out_of_range("d_mlp", c.d_mlp, 0, 4 * kMaxWidth) + " (0 means 4 * d_model)";
  return "";
}

Model init_model(const ModelConfig& config, std::uint64_t seed) {
  const std::string problem = validate_config(config);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const int D = config.d_model, dk = D / config.n_heads, dm = mlp_width(config);
  const double proj = 1.0 / std::sqrt(static_cast<double>(D));
  NormalSource normal(seed);
  Model m;
  m.config = config;
  m.embed = normal.matrix(config.vocab, D, 1.0);
  m.positions = config.learned_positions ? normal.matrix(config.seq_len, D, 1.0)
                                         : attn::detail::sinusoidal_encoding(config.seq_len, D);
  m.layers.resize(config.n_layers);
  for (LayerParams& layer : m.layers) {
    layer.heads.resize(config.n_heads);
    for (HeadWeights& h : layer.heads) {
      h.w_q = normal.matrix(D, dk, proj);
      h.w_k = normal.matrix(D, dk, proj);
      h.w_v = normal.matrix(D, dk, proj);
    }
    layer.w_o = normal.matrix(D, D, proj);
    if (config.mlp) {
      layer.mlp_in = normal.matrix(D, dm, proj);
      layer.mlp_in_bias = Vec::Zero(dm);
      layer.mlp_out = normal.matrix(dm, D, 1.0 / std::sqrt(static_cast<double>(dm)));
      layer.mlp_out_bias = Vec::Zero(D);
    }
  }
  m.unembed = normal.matrix(D, config.vocab, proj);
  return m;
}

Model zeros_like(const Model& model) {
  Model z = model;
  z.embed.setZero();
  z.positions.setZero();
  for (LayerParams& layer : z.layers) {
    for (HeadWeights& h : layer.heads) {
      h.w_q.setZero();
      h.w_k.setZero();
      h.w_v.setZero();
    }
    layer.w_o.setZero();
    layer.mlp_in.setZero();
    layer.mlp_in_bias.setZero();
    layer.mlp_out.setZero();
    layer.mlp_out_bias.setZero();
  }
  z.unembed.setZero();
  return z;
}

std::vector<NamedParam> parameters(Model& model) {
  std::vector<NamedParam> out;
  auto add = [&out](const std::string& name, double* data, Eigen::Index rows, Eigen::Index cols) {
    out.push_back({name, Eigen::Map<Eigen::MatrixXd>(data, rows, cols)});
  };
  auto add_mat = [&add](const std::string& name, Mat& m) { add(name, m.data(), m.rows(), m.cols()); };
  add_mat("embed", model.embed);
  if (model.config.learned_positions) add_mat("positions", model.positions);
  for (size_t l = 0; l < model.layers.size(); ++l) {
    LayerParams& layer = model.layers[l];
    const std::string prefix = "layers[" + std::to_string(l) + "].";
    for (size_t h = 0; h < layer.heads.size(); ++h) {
      const std::string head = prefix + "heads[" + std::to_string(h) + "].";
      add_mat(head + "w_q", layer.heads[h].w_q);
      add_mat(head + "w_k", layer.heads[h].w_k);
      add_mat(head + "w_v", layer.heads[h].w_v);
    }
    add_mat(prefix + "w_o", layer.w_o);
    if (model.config.mlp) {
      add_mat(prefix + "mlp_in", layer.mlp_in);
      add(prefix + "mlp_in_bias", layer.mlp_in_bias.data(), layer.mlp_in_bias.size(), 1);
      add_mat(prefix + "mlp_out", layer.mlp_out);
      add(prefix + "mlp_out_bias", layer.mlp_out_bias.data(), layer.mlp_out_bias.size(), 1);
    }
  }
  add_mat("unembed", model.unembed);
  return out;
}

SequenceForward forward(const Model& model, const std::vector<int>& tokens) {
  const ModelConfig& c = model.config;
  if (static_cast<int>(tokens.size()) != c.seq_len)
    throw std::invalid_argument("tokens: expected " + std::to_string(c.seq_len) + " tokens, got " +
                                std::to_string(tokens.size()));
  Eigen::MatrixXi row(1, c.seq_len);
  for (int t = 0; t < c.seq_len; ++t) {
    if (tokens[t] < 0 || tokens[t] >= c.vocab)
      throw std::invalid_argument("tokens[" + std::to_string(t) + "]: " + std::to_string(tokens[t]) +
                                  " is outside the vocabulary 0.." + std::to_string(c.vocab - 1));
    row(0, t) = tokens[t];
  }
  detail::ChunkActivations act;
  detail::forward_chunk(model, detail::pack_qkv(model), row, 0, 1, act);
  SequenceForward out;
  out.residual = std::move(act.x);
  out.weights = std::move(act.weights);
  out.logits = std::move(act.logits);
  return out;
}

Scenario layer_scenario(const Model& model, const TaskSpec& task, const std::vector<int>& tokens, int layer) {
  if (layer < 0 || layer >= model.config.n_layers)
    throw std::invalid_argument("layer: " + std::to_string(layer) + " is outside 0.." +
                                std::to_string(model.config.n_layers - 1));
  const SequenceForward f = forward(model, tokens);
  Scenario s;
  s.x = f.residual[layer];
  for (int t : tokens) s.tokens.push_back(token_name(task, t));
  s.heads = model.layers[layer].heads;
  s.w_o = model.layers[layer].w_o;
  s.mask = MaskKind::Causal;
  s.scale = ScaleMode::SqrtDk;
  s.positional = Positional::None;
  return s;
}

}  // namespace attn::train
