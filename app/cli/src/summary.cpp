// Builds the `attn check` summary (see summary.hpp) from dims_of() and the
// scenario's options, naming things the way the file format does.
#include "summary.hpp"

#include <sstream>

#include "attn/text/format_number.hpp"

namespace attn::cli {

namespace {

std::string count(long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string mask_text(const Scenario& s) {
  std::string out = "mask ";
  switch (s.mask) {
    case MaskKind::None: out += "none"; break;
    case MaskKind::Causal: out += "causal"; break;
    case MaskKind::Custom: out += "custom"; break;
    case MaskKind::SlidingWindow:
      out += "sliding window of " + std::to_string(s.window);
      if (s.sinks > 0) out += " + " + count(s.sinks, "sink", "sinks");
      break;
    case MaskKind::Strided: out += "strided, stride " + std::to_string(s.stride); break;
  }
  if (!s.key_padding.empty()) {
    long long blocked = 0;
    for (bool b : s.key_padding) blocked += b ? 1 : 0;
    out += " + key padding (" + count(blocked, "key", "keys") + " blocked)";
  }
  if (s.mask_mode == MaskMode::AfterSoftmax) out += " after softmax";
  return out;
}

}  // namespace

std::string summarize(const Scenario& s) {
  const Dims d = dims_of(s);
  std::ostringstream os;
  if (s.is_cross()) {
    os << count(d.n_q, "query", "queries") << " × " << count(d.n_k, "context token", "context tokens")
       << ", d_model " << d.d_model << ", d_ctx " << d.d_ctx;
  } else {
    os << count(d.n_q, "token", "tokens") << ", d_model " << d.d_model;
  }
  if (d.projected) {
    os << ", " << count(d.n_heads, "head", "heads") << " (d_k " << d.d_k << ", d_v " << d.d_v << ")";
    if (d.n_kv_heads != d.n_heads)
      os << " sharing " << count(d.n_kv_heads, "key/value head", "key/value heads")
         << (d.n_kv_heads == 1 ? " (multi-query)" : " (grouped-query)");
  } else {
    os << ", 1 head (no projections)";
  }
  if (s.w_o) os << ", W_O to d_out " << d.d_out;
  os << ", " << mask_text(s);
  if (s.scale == ScaleMode::None) os << ", no scaling";
  if (s.scale == ScaleMode::Temperature) os << ", temperature " << format_number(s.temperature, 6);
  if (s.softcap > 0) os << ", scores soft-capped at " << format_number(s.softcap, 6);
  if (s.score == ScoreFn::Additive) os << ", additive score";
  if (s.positional == Positional::Sinusoidal) os << ", sinusoidal positions";
  if (s.positional == Positional::Alibi) os << ", ALiBi bias";
  if (s.rope.on)
    os << ", RoPE (base " << format_number(s.rope.base, 6) << ", "
       << (s.rope.pairing == RopePairing::Half ? "half" : "interleaved") << " pairs"
       << (s.rope.fraction < 1 ? ", " + format_number(s.rope.fraction, 4) + " of each head" : std::string())
       << (s.rope.offset > 0 ? ", from position " + std::to_string(s.rope.offset) : std::string()) << ")";
  if (s.softmax_axis == SoftmaxAxis::Queries) os << ", softmax over queries";
  return os.str();
}

}  // namespace attn::cli
