// Checks a scenario before computing: every message names the field and the
// problem in words a student can act on. Runs before any large allocation.
#include <cmath>
#include <sstream>
#include <string>

#include "attn/scenario/scenario.hpp"
#include "base/finite.hpp"

namespace attn {
namespace {

// A field's name, spelled out only for a message: validate runs before every
// trace, and building "heads[3].w_q" for each check on success was 3% of a
// 16-token trace.
struct Field {
  const char* name;
  int index = -1;              // >= 0: the field is list[index].name
  const char* list = "heads";  // "heads" or "additive"
  std::string str() const { return index < 0 ? name : std::string(list) + "[" + std::to_string(index) + "]." + name; }
};

std::string first_non_finite(Field field, const Mat& m) {
  if (detail::all_finite(m)) return {};  // vectorised, in memory order: the common case at 2048 tokens
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      if (!std::isfinite(m(r, c))) {
        std::ostringstream os;
        os << field.str() << "[" << r << "][" << c << "]: not a finite number ("
           << (std::isnan(m(r, c)) ? "NaN" : "infinity") << ")";
        return os.str();
      }
  return {};
}

std::string expect_rows(Field field, const Mat& m, long long rows, const std::string& why) {
  if (m.rows() == rows) return {};
  std::ostringstream os;
  os << field.str() << ": expected " << rows << " rows (" << why << "), got " << m.rows();
  return os.str();
}

std::string expect_cols(Field field, const Mat& m, long long cols, const char* why) {
  if (m.cols() == cols) return {};
  std::ostringstream os;
  os << field.str() << ": expected " << cols << " columns (" << why << "), got " << m.cols();
  return os.str();
}

std::string check_labels(const std::string& field, const std::vector<std::string>& labels,
                         long long n, const std::string& of) {
  if (labels.empty() || (long long)labels.size() == n) return {};
  std::ostringstream os;
  os << field << ": expected " << n << " labels (one per row of " << of << "), got "
     << labels.size();
  return os.str();
}

std::string check_limits(const Scenario& s, const Limits& lim) {
  auto too_many = [](const std::string& field, long long value, long long limit, const char* what) {
    return field + ": " + std::to_string(value) + " " + what + " exceeds the limit of " + std::to_string(limit);
  };
  if (s.x.rows() > lim.max_tokens) return too_many("x", s.x.rows(), lim.max_tokens, "tokens");
  if (s.x.cols() > lim.max_width) return too_many("x", s.x.cols(), lim.max_width, "features");
  if (s.context) {
    if (s.context->rows() > lim.max_tokens)
      return too_many("context", s.context->rows(), lim.max_tokens, "tokens");
    if (s.context->cols() > lim.max_width)
      return too_many("context", s.context->cols(), lim.max_width, "features");
  }
  if ((long long)s.heads.size() > lim.max_heads)
    return too_many("heads", (long long)s.heads.size(), lim.max_heads, "heads");
  return {};
}

// Shapes of the projections; every head must agree on d_k and d_v.
std::string check_heads(const Scenario& s, const Dims& d) {
  const char* kv_why = s.is_cross() ? "context width" : "d_model, the width of x";
  for (size_t i = 0; i < s.heads.size(); ++i) {
    const HeadWeights& w = s.heads[i];
    const int h = static_cast<int>(i);
    std::string e;
    if (d.shares_kv(h)) {  // grouped-query attention: reads its group's keys and values
      if (w.w_k.size() != 0 || w.w_v.size() != 0)
        return Field{w.w_k.size() != 0 ? "w_k" : "w_v", h}.str() + ": head " + std::to_string(h) +
               " reads the keys and values of head " + std::to_string(d.kv_leader(h)) + " (n_kv_heads = " +
               std::to_string(d.n_kv_heads) + ", " + std::to_string(d.group()) +
               " query heads per key/value head), so it has none of its own; leave it out";
      if (!(e = expect_rows({"w_q", h}, w.w_q, d.d_model, "d_model, the width of x")).empty()) return e;
      if (!(e = expect_cols({"w_q", h}, w.w_q, d.d_k, "d_k, as in heads[0]")).empty()) return e;
      if (!(e = first_non_finite({"w_q", h}, w.w_q)).empty()) return e;
      continue;
    }
    if (!(e = expect_rows({"w_q", h}, w.w_q, d.d_model, "d_model, the width of x")).empty()) return e;
    if (!(e = expect_rows({"w_k", h}, w.w_k, d.d_ctx, kv_why)).empty()) return e;
    if (!(e = expect_rows({"w_v", h}, w.w_v, d.d_ctx, kv_why)).empty()) return e;
    if (w.w_q.cols() < 1) return Field{"w_q", h}.str() + ": needs at least one column";
    if (w.w_v.cols() < 1) return Field{"w_v", h}.str() + ": needs at least one column";
    if (h > 0 && !(e = expect_cols({"w_q", h}, w.w_q, d.d_k, "d_k, as in heads[0]")).empty()) return e;
    if (!(e = expect_cols({"w_k", h}, w.w_k, w.w_q.cols(), "d_k, the columns of w_q")).empty()) return e;
    if (h > 0 && !(e = expect_cols({"w_v", h}, w.w_v, d.d_v, "d_v, as in heads[0]")).empty()) return e;
    for (auto [name, m] : {std::pair<const char*, const Mat*>{"w_q", &w.w_q}, {"w_k", &w.w_k}, {"w_v", &w.w_v}})
      if (!(e = first_non_finite({name, h}, *m)).empty()) return e;
  }
  return {};
}

// Key/value heads shared by groups of query heads.
std::string check_kv_heads(const Scenario& s) {
  if (s.n_kv_heads == 0) return {};
  const long long heads = static_cast<long long>(s.heads.size());
  if (s.n_kv_heads < 0) return "n_kv_heads: must be at least 1, got " + std::to_string(s.n_kv_heads);
  if (heads == 0) return "n_kv_heads: needs heads with projections (\"heads\") to share keys and values between";
  if (s.n_kv_heads > heads || heads % s.n_kv_heads != 0)
    return "n_kv_heads: " + std::to_string(s.n_kv_heads) + " does not divide the " + std::to_string(heads) +
           " query heads; each key/value head is shared by a whole group of the same size";
  return {};
}

std::string check_rope(const Scenario& s, const Dims& d) {
  const Rope& r = s.rope;
  if (!r.on) return {};
  std::ostringstream os;
  if (s.is_cross())
    return "rope: rotary positions need self-attention (queries and keys at positions of one sequence); this "
           "scenario has a context";
  if (!(std::isfinite(r.base) && r.base > 1)) {
    os << "rope.base: must be a number greater than 1, got " << r.base;
    return os.str();
  }
  if (!(std::isfinite(r.fraction) && r.fraction > 0 && r.fraction <= 1)) {
    os << "rope.fraction: the share of each head's dimensions to rotate must be in (0, 1], got " << r.fraction;
    return os.str();
  }
  if (r.offset < 0 || r.offset > 100000000)
    return "rope.offset: the first position must be from 0 to 100000000, got " + std::to_string(r.offset);
  const int rotated = rope_dims(r, d.d_k);
  if (r.fraction == 1 && d.d_k % 2 != 0)
    return "rope: d_k = " + std::to_string(d.d_k) + " is odd, and RoPE turns dimensions in pairs; use an even d_k "
           "or rotate part of each head (rope.fraction)";
  if (rotated < 2 || rotated % 2 != 0) {
    os << "rope.fraction: " << r.fraction << " of d_k = " << d.d_k << " rotates " << rotated
       << " dimensions; RoPE needs an even number, at least 2";
    return os.str();
  }
  if (!r.frequencies.empty()) {
    if (static_cast<int>(r.frequencies.size()) != rotated / 2)
      return "rope.frequencies: " + std::to_string(r.frequencies.size()) + " given, but " + std::to_string(rotated) +
             " rotated dimensions make " + std::to_string(rotated / 2) + (rotated == 2 ? " pair" : " pairs");
    for (std::size_t i = 0; i < r.frequencies.size(); ++i)
      if (!(std::isfinite(r.frequencies[i]) && r.frequencies[i] > 0)) {
        os << "rope.frequencies[" << i << "]: must be a positive number, got " << r.frequencies[i];
        return os.str();
      }
  }
  return {};
}

std::string check_mask_kind(const Scenario& s, const Dims& d) {
  if (s.mask == MaskKind::SlidingWindow) {
    if (s.window < 1)
      return "mask.window: must be at least 1 (a query always sees itself), got " + std::to_string(s.window);
    if (s.sinks < 0) return "mask.sinks: must be 0 or more, got " + std::to_string(s.sinks);
    if (s.sinks > d.n_k)
      return "mask.sinks: " + std::to_string(s.sinks) + " sink tokens in a sequence of " + std::to_string(d.n_k) +
             " keys";
  }
  if (s.mask == MaskKind::Strided && s.stride < 1)
    return "mask.stride: must be at least 1, got " + std::to_string(s.stride);
  return {};
}

std::string check_additive(const Scenario& s, const Dims& d) {
  if (s.score != ScoreFn::Additive || s.additive.empty()) return {};
  if ((int)s.additive.size() != d.n_heads)
    return "additive: expected " + std::to_string(d.n_heads) + " entries (one per head), got " +
           std::to_string(s.additive.size());
  for (size_t i = 0; i < s.additive.size(); ++i) {
    const AdditiveParams& a = s.additive[i];
    const int h = static_cast<int>(i);
    std::string e;
    if (!(e = expect_rows({"w", h, "additive"}, a.w, d.d_k, "d_k")).empty()) return e;
    if (!(e = expect_rows({"u", h, "additive"}, a.u, d.d_k, "d_k")).empty()) return e;
    if (a.w.cols() < 1) return Field{"w", h, "additive"}.str() + ": needs at least one column";
    if (!(e = expect_cols({"u", h, "additive"}, a.u, a.w.cols(), "the columns of w")).empty()) return e;
    if (a.v.size() != a.w.cols())
      return Field{"v", h, "additive"}.str() + ": expected " + std::to_string(a.w.cols()) +
             " numbers (the columns of w), got " + std::to_string(a.v.size());
    if (!(e = first_non_finite({"w", h, "additive"}, a.w)).empty()) return e;
    if (!(e = first_non_finite({"u", h, "additive"}, a.u)).empty()) return e;
    if (!(e = first_non_finite({"v", h, "additive"}, Mat(a.v))).empty()) return e;
  }
  return {};
}

std::string check_mask(const Scenario& s, const Dims& d) {
  if (s.mask == MaskKind::Custom &&
      (s.custom_mask.rows() != d.n_q || s.custom_mask.cols() != d.n_k)) {
    std::ostringstream os;
    os << "mask: expected a " << d.n_q << "×" << d.n_k << " array (queries × keys), got "
       << s.custom_mask.rows() << "×" << s.custom_mask.cols();
    return os.str();
  }
  if (!s.key_padding.empty() && (int)s.key_padding.size() != d.n_k)
    return "key_padding: expected " + std::to_string(d.n_k) + " entries (one per key), got " +
           std::to_string(s.key_padding.size());
  return {};
}

}  // namespace

std::string validate(const Scenario& s, const Limits& limits) {
  std::string e;
  if (s.x.rows() < 1 || s.x.cols() < 1) return "x: needs at least one row (token) and one column (feature)";
  if (s.context && (s.context->rows() < 1 || s.context->cols() < 1))
    return "context: needs at least one row (token) and one column (feature)";
  if (!(e = check_limits(s, limits)).empty()) return e;
  if (!(e = first_non_finite({"x"}, s.x)).empty()) return e;
  if (s.context && !(e = first_non_finite({"context"}, *s.context)).empty()) return e;
  if (!(e = check_kv_heads(s)).empty()) return e;
  const Dims d = dims_of(s);
  if (!(e = check_labels("tokens", s.tokens, d.n_q, "x")).empty()) return e;
  if (!(e = check_labels("context_tokens", s.context_tokens, d.n_k, "context")).empty()) return e;
  if (!s.context && !s.context_tokens.empty()) return "context_tokens: given without a context";
  if (s.heads.empty() && d.d_model != d.d_ctx)
    return "context: width " + std::to_string(d.d_ctx) + " differs from the width of x (" +
           std::to_string(d.d_model) + "); without heads the queries and keys are compared "
           "directly, so add heads with projections";
  if (!(e = check_heads(s, d)).empty()) return e;
  if (s.w_o) {
    const long long rows = (long long)d.n_heads * d.d_v;
    if (s.w_o->rows() != rows)
      return expect_rows({"w_o"}, *s.w_o, rows,
                         "heads × d_v = " + std::to_string(d.n_heads) + " × " + std::to_string(d.d_v));
    if (s.w_o->cols() < 1) return "w_o: needs at least one column";
    if (!(e = first_non_finite({"w_o"}, *s.w_o)).empty()) return e;
  }
  if (s.output_bias.size() > 0) {
    if (!s.w_o) return "output_bias: given without a w_o (the bias belongs to the output projection)";
    if (s.output_bias.size() != s.w_o->cols())
      return "output_bias: " + std::to_string(s.output_bias.size()) + " entries, but w_o has " +
             std::to_string(s.w_o->cols()) + " columns (one bias per output column)";
    for (Eigen::Index i = 0; i < s.output_bias.size(); ++i)
      if (!std::isfinite(s.output_bias(i))) {
        std::ostringstream os;
        os << "output_bias[" << i << "]: must be a finite number, got " << s.output_bias(i);
        return os.str();
      }
  }
  if (s.scale == ScaleMode::Temperature && !(std::isfinite(s.temperature) && s.temperature > 0)) {
    std::ostringstream os;
    os << "scale: the temperature must be a positive number, got " << s.temperature;
    return os.str();
  }
  if (!(std::isfinite(s.softcap) && s.softcap >= 0)) {
    std::ostringstream os;
    os << "softcap: must be a positive number (or 0 for no cap), got " << s.softcap;
    return os.str();
  }
  if (!(e = check_mask(s, d)).empty()) return e;
  if (!(e = check_mask_kind(s, d)).empty()) return e;
  if (!(e = check_rope(s, d)).empty()) return e;
  if (!(e = check_additive(s, d)).empty()) return e;
  const long long bytes = estimated_trace_bytes(d);
  if (bytes > limits.max_trace_bytes) {
    std::ostringstream os;
    os.precision(3);
    os << "scenario too large: " << d.n_q << " queries × " << d.n_k << " keys × " << d.n_heads
       << " heads would need about " << (double)bytes / (1 << 30) << " GiB (limit "
       << (double)limits.max_trace_bytes / (1 << 30) << " GiB"
       << (limits.trace_limit_reason.empty() ? "" : ": " + limits.trace_limit_reason) << ")";
    return os.str();
  }
  return {};
}

}  // namespace attn
