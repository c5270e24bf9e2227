// A tiny attention-only transformer: token embedding plus positions, 1-2
// layers of multi-head causal self-attention with W_O and a residual stream,
// an optional ReLU MLP per layer, and an unembedding. Double precision, like
// the rest of the core, so a trained layer is an ordinary attn::Scenario.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/base/matrix.hpp"
#include "attn/scenario/scenario.hpp"
#include "attn/train/task.hpp"

namespace attn::train {

struct ModelConfig {
  int vocab = 17;    // model_vocab(task)
  int seq_len = 24;  // sequence_length(task)
  int d_model = 64;
  int n_heads = 4;   // d_k = d_v = d_model / n_heads
  int n_layers = 2;
  bool learned_positions = true;  // false: fixed sinusoidal positions (not trained)
  bool mlp = false;
  int d_mlp = 0;  // 0 means 4 * d_model when mlp is on
};

struct LayerParams {
  std::vector<HeadWeights> heads;  // w_q, w_k, w_v: (d_model, d_k)
  Mat w_o;                         // (n_heads * d_k, d_model)
  Mat mlp_in;                      // (d_model, d_mlp), empty without MLP
  Vec mlp_in_bias;                 // (d_mlp)
  Mat mlp_out;                     // (d_mlp, d_model)
  Vec mlp_out_bias;                // (d_model)
};

// Used both for the weights and for their gradients (same shapes).
struct Model {
  ModelConfig config;
  Mat embed;      // (vocab, d_model)
  Mat positions;  // (seq_len, d_model): learned, or the sinusoidal table
  std::vector<LayerParams> layers;
  Mat unembed;    // (d_model, vocab)
};

// Empty when valid, else one message naming the field ("n_heads: 3 does not divide d_model 64").
std::string validate_config(const ModelConfig& config);
// Small random weights (scaled normal), deterministic in seed.
// Scheme (normal draws from one mt19937_64 seeded with `seed`, Box-Muller on
// its raw 64-bit output so every platform draws the same numbers), in this
// order: embed N(0, 1); learned positions N(0, 1) (sinusoidal: the fixed
// table PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(same), as the
// core's sinusoidal encoding); per layer, per head w_q, w_k, w_v
// N(0, 1/d_model); w_o N(0, 1/d_model); with MLP, mlp_in N(0, 1/d_model),
// mlp_out N(0, 1/d_mlp), biases 0; unembed N(0, 1/d_model).
// Unit-size embeddings make the scores O(1) from the start (there is no
// layer norm), so the attention pattern gets gradient from step one.
Model init_model(const ModelConfig& config, std::uint64_t seed);
// Same shapes, all zeros (a gradient accumulator).
Model zeros_like(const Model& model);

// Every trainable matrix with a stable name ("embed", "layers[0].heads[1].w_q",
// "layers[0].w_o", "unembed", ...), in a fixed order. Fixed sinusoidal
// positions are not listed. Vectors are viewed as one-column matrices.
struct NamedParam {
  std::string name;
  Eigen::Map<Eigen::MatrixXd> value;
};
std::vector<NamedParam> parameters(Model& model);

// Everything a forward pass over one sequence computed, kept for the
// backward pass and for showing the heads.
struct SequenceForward {
  std::vector<Mat> residual;                    // n_layers + 1 entries, each (seq_len, d_model): input to each layer, then the final stream
  std::vector<std::vector<Mat>> weights;        // [layer][head] (seq_len, seq_len) softmax weights, causal
  Mat logits;                                   // (seq_len, vocab)
};
SequenceForward forward(const Model& model, const std::vector<int>& tokens);

// Mean cross-entropy over the scored positions of the batch, and (when grad
// is not null) its gradient with respect to every parameter, written into
// *grad (resized like model). `threads` splits the batch; 0 = hardware.
// The result does not depend on the thread count beyond rounding order,
// which is fixed (per-thread sums added in thread order).
double loss_and_gradient(const Model& model, const Batch& batch, Model* grad, int threads = 0);

// Loss (as above) and accuracy (share of scored positions whose first
// highest logit is the target) on a batch, without gradients.
struct BatchScore {
  double loss = 0;
  double accuracy = 0;
};
BatchScore score_batch(const Model& model, const Batch& batch, int threads = 0);

// One attention layer of the model on one input, as an ordinary scenario:
// x is that layer's residual input, the heads' W_Q/W_K/W_V and W_O are the
// model's, the mask is causal and the scale 1/sqrt(d_k). Tracing it with the
// core gives the layer's weights and its attention output exactly.
Scenario layer_scenario(const Model& model, const TaskSpec& task,
                        const std::vector<int>& tokens, int layer);

// "" when the forward pass cannot overflow, else where it does, as a
// scenario's overflow is named: 'the forward pass overflows on the input
// "A A A A", layer 1: stage "q" (head 0), cell [0][0]: value overflowed
// (Q = X · W_Q); ...'. A bound clears ordinary weights at once; only weights
// near the largest double are run (model_overflow.cpp says on what).
std::string forward_overflow(const Model& model, const TaskSpec& task);

}  // namespace attn::train
