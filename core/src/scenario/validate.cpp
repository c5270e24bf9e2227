// Checks a scenario before computing: every message names the field and the
// problem in words a student can act on. Runs before any large allocation.
#include <cmath>
#include <sstream>
#include <string>

#include "attn/scenario.hpp"
#include "compute/finite.hpp"

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
  if (s.scale == ScaleMode::Temperature && !(std::isfinite(s.temperature) && s.temperature > 0)) {
    std::ostringstream os;
    os << "scale: the temperature must be a positive number, got " << s.temperature;
    return os.str();
  }
  if (!(e = check_mask(s, d)).empty()) return e;
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
