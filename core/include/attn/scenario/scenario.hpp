// A scenario: everything needed to compute one attention trace.
// This is the in-memory form of the published scenario file format; the core
// only needs these numbers and options, never the file or the UI.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/base/matrix.hpp"

namespace attn {

enum class ScaleMode { SqrtDk, None, Temperature };
// Causal, SlidingWindow and Strided let a query see no key after it.
// SlidingWindow (Mistral): the last `window` keys up to the query, plus the
// first `sinks` keys of the sequence always (StreamingLLM's attention sinks).
// Strided (Sparse Transformer): the last `stride` keys, plus every key a
// whole number of strides back.
enum class MaskKind { None, Causal, Custom, SlidingWindow, Strided };
enum class MaskMode { BeforeSoftmax, AfterSoftmax };
enum class ScoreFn { Dot, Additive };
enum class Positional { None, Sinusoidal, Alibi };
enum class SoftmaxAxis { Keys, Queries };

// Bahdanau-style score v . tanh(q W + k U) for one head.
struct AdditiveParams {
  Mat w;  // (d_k, d_att)
  Mat u;  // (d_k, d_att)
  Vec v;  // (d_att)
};

// With grouped-query attention (Scenario::n_kv_heads) only the first head
// of each group carries w_k and w_v; the other heads of the group leave them
// empty (0×0) and read that head's keys and values.
struct HeadWeights {
  Mat w_q;  // (d_model, d_k)
  Mat w_k;  // (d_ctx, d_k)
  Mat w_v;  // (d_ctx, d_v)
};

// Rotary position embeddings (RoFormer): after the projections, each pair of
// a query's or key's dimensions at position m is turned by the angle m·θ_i,
// θ_i = base^(−2i/r), where r is the number of rotated dimensions.
enum class RopePairing {
  Half,         // dimension i with i + r/2 (Hugging Face Llama's rotate_half, GPT-NeoX)
  Interleaved,  // dimension 2i with 2i + 1 (the paper, GPT-J)
};
struct Rope {
  bool on = false;
  double base = 10000;  // 500000 in Llama 3
  // The share of each head's d_k that is rotated, from the first dimension
  // (partial rotary, as GPT-NeoX and Phi); the rotated count must be even.
  double fraction = 1.0;
  RopePairing pairing = RopePairing::Half;
  int offset = 0;  // the first token's position (a KV cache continues from here)
  // One angle per position for each rotated pair, when a checkpoint rescales
  // them (Llama 3.1's rope_scaling); empty: θ_i = base^(−2i/r).
  std::vector<double> frequencies;
  bool operator==(const Rope& o) const {
    return on == o.on && base == o.base && fraction == o.fraction && pairing == o.pairing && offset == o.offset &&
           frequencies == o.frequencies;
  }
  bool operator!=(const Rope& o) const { return !(*this == o); }
};

// How many of a head's d_k dimensions are rotated: ⌊fraction · d_k⌋, as
// GPT-NeoX counts them (validate() requires it even and at least 2).
int rope_dims(const Rope& rope, int d_k);

struct Scenario {
  Mat x;                                    // (n_q, d_model)
  std::vector<std::string> tokens;          // n_q labels, may be empty
  std::optional<Mat> context;               // (n_k, d_ctx): cross-attention when present
  std::vector<std::string> context_tokens;  // n_k labels, may be empty

  // Empty means one head without projections (Q = X, K = V = context or X).
  std::vector<HeadWeights> heads;
  std::optional<Mat> w_o;  // (n_heads * d_v, d_out); absent: output = concat
  // W_O's bias b_O, added to every output row (a checkpoint's attention
  // output bias: GPT-2's c_proj, BERT's output.dense); empty: none. Needs w_o.
  Vec output_bias;  // d_out entries

  ScaleMode scale = ScaleMode::SqrtDk;
  double temperature = 1.0;  // used when scale == Temperature
  // A soft cap on the scaled scores, softcap · tanh(scaled / softcap), as
  // Gemma 2 bounds its logits at ±50 (attn_logit_softcapping); 0 = none.
  double softcap = 0;

  MaskKind mask = MaskKind::None;
  BoolMat custom_mask;            // (n_q, n_k), true = blocked; used when mask == Custom
  int window = 0;                 // SlidingWindow: keys each query sees, itself included (>= 1)
  int sinks = 0;                  // SlidingWindow: first keys every query also sees
  int stride = 0;                 // Strided: the local width and the stride (>= 1)
  std::vector<bool> key_padding;  // n_k entries, true = key blocked; empty = none
  MaskMode mask_mode = MaskMode::BeforeSoftmax;

  ScoreFn score = ScoreFn::Dot;
  // One entry per head. Empty with ScoreFn::Additive means W = U = I, v = 1.
  std::vector<AdditiveParams> additive;

  Positional positional = Positional::None;
  SoftmaxAxis softmax_axis = SoftmaxAxis::Keys;
  Rope rope;

  // Key/value heads (grouped-query attention): 0 means one per head (MHA),
  // 1 is multi-query attention. Must divide the number of heads.
  int n_kv_heads = 0;

  bool is_cross() const { return context.has_value(); }
  const Mat& keys_source() const { return context ? *context : x; }
};

// Shapes derived from a scenario; valid only once validate() accepted it.
struct Dims {
  int n_q = 0, n_k = 0;
  int d_model = 0, d_ctx = 0;
  int d_k = 0, d_v = 0;
  int n_heads = 1;
  int n_kv_heads = 1;  // key/value heads: n_heads unless grouped
  int d_out = 0;
  bool projected = false;  // heads carry W_Q/W_K/W_V
  // Query heads per key/value head; the key/value head that query head h
  // reads; the query head that carries it (the first of its group, whose
  // stages hold its W_K, W_V, K and V); whether h reads another head's.
  int group() const { return n_kv_heads > 0 ? n_heads / n_kv_heads : 1; }
  int kv_index(int h) const { return h / group(); }
  int kv_leader(int h) const { return h - h % group(); }
  bool shares_kv(int h) const { return h % group() != 0; }
  bool operator==(const Dims& o) const {
    return n_q == o.n_q && n_k == o.n_k && d_model == o.d_model && d_ctx == o.d_ctx && d_k == o.d_k && d_v == o.d_v &&
           n_heads == o.n_heads && n_kv_heads == o.n_kv_heads && d_out == o.d_out && projected == o.projected;
  }
  bool operator!=(const Dims& o) const { return !(*this == o); }
};

Dims dims_of(const Scenario& s);

// Limits protecting the machine from absurd inputs; checked before allocating.
struct Limits {
  long long max_tokens = 16384;
  long long max_width = 4096;
  long long max_heads = 64;
  long long max_trace_bytes = 6LL << 30;  // all stages together
  std::string trace_limit_reason;        // why max_trace_bytes is what it is, for the message
};

// Returns an empty string when the scenario can be computed, otherwise one
// message naming the field and the problem, e.g.
// "heads[1].w_k: expected 4 rows (context width), got 3".
std::string validate(const Scenario& s, const Limits& limits = {});

// Empty when a and b hold the same shapes, values, labels and options, else
// the first difference, e.g. "heads[1].w_k differs". (Eigen matrices compare
// element-wise, so there is no operator==.)
std::string scenario_difference(const Scenario& a, const Scenario& b);

// Estimated bytes of a full trace, used to refuse huge inputs up front.
long long estimated_trace_bytes(const Dims& d);

}  // namespace attn
