// Internal: the forward and backward pass over a chunk of sequences stacked
// row-wise, (nseq * seq_len, d_model), so the projections, W_O, the MLP and
// the unembedding are single large matrix products; only the (seq_len x
// seq_len) attention of each sequence and head is done per sequence.
#pragma once

#include <vector>

#include "attn/train/model.hpp"

namespace attn::train::detail {

// Each layer's W_Q, W_K, W_V of every head side by side, (d_model, 3 d_model):
// columns [Q of head 0..H-1 | K of head 0..H-1 | V of head 0..H-1].
std::vector<Mat> pack_qkv(const Model& model);

// What the forward pass keeps for the backward pass.
struct ChunkActivations {
  int nseq = 0, seq_len = 0;
  std::vector<Mat> x;       // n_layers + 1: residual input of each layer, then the final stream
  std::vector<Mat> qkv;     // per layer: x * packed W_QKV
  std::vector<Mat> concat;  // per layer: the heads' outputs side by side
  std::vector<Mat> mid;     // per layer with MLP: x + concat * W_O (input to the MLP)
  std::vector<Mat> pre;     // per layer with MLP: mid * mlp_in + b (before ReLU)
  std::vector<std::vector<Mat>> weights;  // [layer][seq * n_heads + head], causal softmax weights
  Mat logits;               // (nseq * seq_len, vocab)
};

// Rows first..first+nseq-1 of `tokens` (one sequence per row).
void forward_chunk(const Model& model, const std::vector<Mat>& qkv_weights, const Eigen::MatrixXi& tokens,
                   int first, int nseq, ChunkActivations& act);

// Gradient of the chunk's loss given d loss / d logits; adds into *grad
// (shaped like the model) and into the packed W_QKV gradients.
void backward_chunk(const Model& model, const std::vector<Mat>& qkv_weights, const Eigen::MatrixXi& tokens,
                    int first, const ChunkActivations& act, const Mat& dlogits, Model& grad,
                    std::vector<Mat>& dqkv_weights);

// Splits packed W_QKV gradients back into the per-head matrices of `grad`.
void unpack_qkv(const std::vector<Mat>& dqkv_weights, Model& grad);

}  // namespace attn::train::detail
