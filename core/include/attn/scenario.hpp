// A scenario: everything needed to compute one attention trace.
// This is the in-memory form of the published scenario file format; the core
// only needs these numbers and options, never the file or the UI.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/matrix.hpp"

namespace attn {

enum class ScaleMode { SqrtDk, None, Temperature };
enum class MaskKind { None, Causal, Custom };
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

struct HeadWeights {
  Mat w_q;  // (d_model, d_k)
  Mat w_k;  // (d_ctx, d_k)
  Mat w_v;  // (d_ctx, d_v)
};

struct Scenario {
  Mat x;                                    // (n_q, d_model)
  std::vector<std::string> tokens;          // n_q labels, may be empty
  std::optional<Mat> context;               // (n_k, d_ctx): cross-attention when present
  std::vector<std::string> context_tokens;  // n_k labels, may be empty

  // Empty means one head without projections (Q = X, K = V = context or X).
  std::vector<HeadWeights> heads;
  std::optional<Mat> w_o;  // (n_heads * d_v, d_out); absent: output = concat

  ScaleMode scale = ScaleMode::SqrtDk;
  double temperature = 1.0;  // used when scale == Temperature

  MaskKind mask = MaskKind::None;
  BoolMat custom_mask;            // (n_q, n_k), true = blocked; used when mask == Custom
  std::vector<bool> key_padding;  // n_k entries, true = key blocked; empty = none
  MaskMode mask_mode = MaskMode::BeforeSoftmax;

  ScoreFn score = ScoreFn::Dot;
  // One entry per head. Empty with ScoreFn::Additive means W = U = I, v = 1.
  std::vector<AdditiveParams> additive;

  Positional positional = Positional::None;
  SoftmaxAxis softmax_axis = SoftmaxAxis::Keys;

  bool is_cross() const { return context.has_value(); }
  const Mat& keys_source() const { return context ? *context : x; }
};

// Shapes derived from a scenario; valid only once validate() accepted it.
struct Dims {
  int n_q = 0, n_k = 0;
  int d_model = 0, d_ctx = 0;
  int d_k = 0, d_v = 0;
  int n_heads = 1;
  int d_out = 0;
  bool projected = false;  // heads carry W_Q/W_K/W_V
  bool operator==(const Dims& o) const {
    return n_q == o.n_q && n_k == o.n_k && d_model == o.d_model && d_ctx == o.d_ctx && d_k == o.d_k && d_v == o.d_v &&
           n_heads == o.n_heads && d_out == o.d_out && projected == o.projected;
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
