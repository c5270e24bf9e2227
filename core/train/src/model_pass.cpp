// Hand-written forward and backward pass of the tiny attention model.
// Notation per layer (rows = tokens of all stacked sequences):
//   QKV = X W_QKV;  S_h = Q_h K_h^T / sqrt(d_k), causal;  A_h = softmax(S_h)
//   O_h = A_h V_h;  concat = [O_0 | ... ];  M = X + concat W_O
//   with MLP: P = M W_in + b_in, X' = M + relu(P) W_out + b_out;  else X' = M
// and finally logits = X_final * unembed.
#include "model_pass.hpp"

#include <cmath>
#include <limits>

namespace attn::train::detail {
namespace {

int head_width(const ModelConfig& c) { return c.d_model / c.n_heads; }

// Row-wise causal softmax: query i sees keys 0..i; blocked cells get weight 0.
void causal_softmax(Mat& s) {
  const Eigen::Index n = s.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    auto seen = s.row(i).head(i + 1);
    const double top = seen.maxCoeff();
    seen = (seen.array() - top).exp().matrix();
    seen /= seen.sum();
    s.row(i).tail(n - i - 1).setZero();
  }
}

}  // namespace

std::vector<Mat> pack_qkv(const Model& model) {
  const ModelConfig& c = model.config;
  const int dk = head_width(c);
  std::vector<Mat> packed;
  for (const LayerParams& layer : model.layers) {
    Mat w(c.d_model, 3 * c.d_model);
    for (int h = 0; h < c.n_heads; ++h) {
      w.middleCols(h * dk, dk) = layer.heads[h].w_q;
      w.middleCols(c.d_model + h * dk, dk) = layer.heads[h].w_k;
      w.middleCols(2 * c.d_model + h * dk, dk) = layer.heads[h].w_v;
    }
    packed.push_back(std::move(w));
  }
  return packed;
}

void unpack_qkv(const std::vector<Mat>& dqkv_weights, Model& grad) {
  const ModelConfig& c = grad.config;
  const int dk = head_width(c);
  for (int l = 0; l < c.n_layers; ++l)
    for (int h = 0; h < c.n_heads; ++h) {
      HeadWeights& g = grad.layers[l].heads[h];
      g.w_q += dqkv_weights[l].middleCols(h * dk, dk);
      g.w_k += dqkv_weights[l].middleCols(c.d_model + h * dk, dk);
      g.w_v += dqkv_weights[l].middleCols(2 * c.d_model + h * dk, dk);
    }
}

void forward_chunk(const Model& model, const std::vector<Mat>& qkv_weights, const Eigen::MatrixXi& tokens,
                   int first, int nseq, ChunkActivations& act) {
  const ModelConfig& c = model.config;
  const int T = c.seq_len, D = c.d_model, H = c.n_heads, dk = head_width(c);
  const int rows = nseq * T;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  act.nseq = nseq;
  act.seq_len = T;
  act.x.resize(c.n_layers + 1);
  act.qkv.resize(c.n_layers);
  act.concat.resize(c.n_layers);
  act.mid.resize(c.n_layers);
  act.pre.resize(c.n_layers);
  act.weights.resize(c.n_layers);

  Mat& x0 = act.x[0];
  x0.resize(rows, D);
  for (int s = 0; s < nseq; ++s)
    for (int t = 0; t < T; ++t)
      x0.row(s * T + t) = model.embed.row(tokens(first + s, t)) + model.positions.row(t);

  for (int l = 0; l < c.n_layers; ++l) {
    const LayerParams& p = model.layers[l];
    const Mat& x = act.x[l];
    Mat& qkv = act.qkv[l];
    qkv.noalias() = x * qkv_weights[l];
    Mat& concat = act.concat[l];
    concat.resize(rows, D);
    std::vector<Mat>& weights = act.weights[l];
    weights.resize(static_cast<size_t>(nseq) * H);
    for (int s = 0; s < nseq; ++s)
      for (int h = 0; h < H; ++h) {
        const auto q = qkv.block(s * T, h * dk, T, dk);
        const auto k = qkv.block(s * T, D + h * dk, T, dk);
        const auto v = qkv.block(s * T, 2 * D + h * dk, T, dk);
        Mat& a = weights[static_cast<size_t>(s) * H + h];
        a.noalias() = (q * k.transpose()) * scale;
        causal_softmax(a);
        concat.block(s * T, h * dk, T, dk).noalias() = a * v;
      }
    Mat& next = act.x[l + 1];
    next = x;
    next.noalias() += concat * p.w_o;
    if (c.mlp) {
      act.mid[l] = next;
      Mat& pre = act.pre[l];
      pre.noalias() = next * p.mlp_in;
      pre.rowwise() += p.mlp_in_bias.transpose();
      next.noalias() += pre.cwiseMax(0.0) * p.mlp_out;
      next.rowwise() += p.mlp_out_bias.transpose();
    }
  }
  act.logits.noalias() = act.x[c.n_layers] * model.unembed;
}

void backward_chunk(const Model& model, const std::vector<Mat>& qkv_weights, const Eigen::MatrixXi& tokens,
                    int first, const ChunkActivations& act, const Mat& dlogits, Model& grad,
                    std::vector<Mat>& dqkv_weights) {
  const ModelConfig& c = model.config;
  const int T = c.seq_len, D = c.d_model, H = c.n_heads, dk = head_width(c);
  const int nseq = act.nseq;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));

  grad.unembed.noalias() += act.x[c.n_layers].transpose() * dlogits;
  Mat dx = dlogits * model.unembed.transpose();  // d loss / d residual stream
  Mat dconcat, dqkv(nseq * T, 3 * D), dpre, da, ds;
  for (int l = c.n_layers - 1; l >= 0; --l) {
    const LayerParams& p = model.layers[l];
    LayerParams& g = grad.layers[l];
    if (c.mlp) {  // dx is d/dX'; turn it into d/dM (M feeds X' directly and through the MLP)
      const Mat& pre = act.pre[l];
      g.mlp_out.noalias() += pre.cwiseMax(0.0).transpose() * dx;
      g.mlp_out_bias += dx.colwise().sum().transpose();
      dpre.noalias() = dx * p.mlp_out.transpose();
      dpre = (pre.array() > 0.0).select(dpre, 0.0);
      g.mlp_in.noalias() += act.mid[l].transpose() * dpre;
      g.mlp_in_bias += dpre.colwise().sum().transpose();
      dx.noalias() += dpre * p.mlp_in.transpose();
    }
    // M = X + concat W_O: dx flows to X unchanged and to concat through W_O.
    g.w_o.noalias() += act.concat[l].transpose() * dx;
    dconcat.noalias() = dx * p.w_o.transpose();
    const Mat& qkv = act.qkv[l];
    for (int s = 0; s < nseq; ++s)
      for (int h = 0; h < H; ++h) {
        const Mat& a = act.weights[l][static_cast<size_t>(s) * H + h];
        const auto q = qkv.block(s * T, h * dk, T, dk);
        const auto k = qkv.block(s * T, D + h * dk, T, dk);
        const auto v = qkv.block(s * T, 2 * D + h * dk, T, dk);
        const auto dout = dconcat.block(s * T, h * dk, T, dk);
        da.noalias() = dout * v.transpose();
        dqkv.block(s * T, 2 * D + h * dk, T, dk).noalias() = a.transpose() * dout;
        // Softmax backward per row: dS = A * (dA - sum_j A dA); blocked cells have A = 0.
        const Eigen::VectorXd row_dot = (a.array() * da.array()).rowwise().sum();
        ds = (a.array() * (da.array().colwise() - row_dot.array())).matrix() * scale;
        dqkv.block(s * T, h * dk, T, dk).noalias() = ds * k;
        dqkv.block(s * T, D + h * dk, T, dk).noalias() = ds.transpose() * q;
      }
    dqkv_weights[l].noalias() += act.x[l].transpose() * dqkv;
    dx.noalias() += dqkv * qkv_weights[l].transpose();
  }
  for (int s = 0; s < nseq; ++s)
    for (int t = 0; t < T; ++t) grad.embed.row(tokens(first + s, t)) += dx.row(s * T + t);
  if (c.learned_positions)
    for (int s = 0; s < nseq; ++s) grad.positions += dx.middleRows(s * T, T);
}

}  // namespace attn::train::detail
