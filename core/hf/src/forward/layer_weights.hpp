#pragma once
// One transformer block's weights in a family-independent form: the forward
// pass is written once against this. Loaded per layer, used, dropped, so a
// model larger than memory streams through one block at a time.
#include "forward/tensor_load.hpp"

namespace attn::hf::detail {

template <class S>
struct LayerWeights {
  RowX<S> norm1_w, norm1_b;  // pre-norm: before attention; BERT: after it
  Weight<S> w_q, w_k, w_v;   // (d, heads * hd), (d, kv * hd), (d, kv * hd)
  RowX<S> b_q, b_k, b_v;     // empty when the family has none
  Weight<S> w_o;             // (heads * hd, d)
  RowX<S> b_o;
  RowX<S> norm2_w, norm2_b;  // before the MLP (pre-norm) or after it (BERT)
  RowX<S> post_attn_norm_w, post_mlp_norm_w;  // Gemma 2's norms after attention and after the MLP
  Weight<S> w_up, w_gate, w_down;  // w_gate only for SwiGLU
  RowX<S> b_up, b_gate, b_down;  // b_gate only for Llama's mlp_bias
  std::vector<TensorRef> sources;  // every tensor read, to release once the layer is done
  void release() const {
    for (const TensorRef& t : sources) t.release();
  }
};

template <class S>
LayerWeights<S> load_layer(const Checkpoint& ck, int layer);

// Embedding-side tensors, looked up without copying whole tables.
struct EmbeddingTensors {
  TensorRef tokens;     // [vocab, d]
  TensorRef positions;  // [max_positions, d] (GPT-2, BERT)
  TensorRef types;      // [type_vocab, d] (BERT)
  TensorRef embed_norm_w, embed_norm_b;  // BERT's embedding LayerNorm
  TensorRef final_norm_w, final_norm_b;  // GPT-2's ln_f, Llama's norm
  TensorRef lm_head;    // [vocab, d]: the tied embedding or lm_head.weight
};
EmbeddingTensors embedding_tensors(const Checkpoint& ck);

}  // namespace attn::hf::detail
