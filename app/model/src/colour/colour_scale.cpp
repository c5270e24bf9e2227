// Colour ranges. A cell drawn with the masked look (blocked and zero, or a
// −∞ logit) never widens a range: it is hatched, not coloured, and its zero
// would pin every causal row's minimum to 0.
#include "model/colour/colour_scale.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "attn/text/format_number.hpp"
#include "attn/execution/parallel.hpp"

namespace model {

namespace {

// Softmax weights over rows: a weight only grows with its logit, so each
// row's smallest and largest counted weights are those of its smallest and
// largest open logits. One pass over the logits finds them, then the two
// weights are read as cells, where a scan would compute every exp.
bool softmax_row_ranges(const attn::Stage& s, std::vector<ValueRange>& out) {
  const attn::Derivation& d = s.value.derivation();
  const bool masked = d.mask.size() != 0;
  if (s.kind != attn::ValueKind::Probability || !d.softmax_over_rows) return false;
  // Counted cells must be the open ones: every blocked cell a −∞ logit (a
  // zero weight), and no blocked cell the derivation does not know of.
  if (masked ? d.blocked_value != -HUGE_VAL || s.blocked.shared() != d.mask.shared() : s.blocked.size() != 0)
    return false;
  attn::Derivation logit_only = d;
  logit_only.softmax = nullptr;
  const attn::StageValues logits(s.value.shared(), logit_only);
  const Eigen::Index n = s.value.rows(), cols = s.value.cols();
  std::vector<double> lo(static_cast<size_t>(n), HUGE_VAL), hi(static_cast<size_t>(n), -HUGE_VAL);
  std::vector<Eigen::Index> lo_at(static_cast<size_t>(n), -1), hi_at(static_cast<size_t>(n), -1);
  for (Eigen::Index c = 0; c < cols; ++c) {
    const Eigen::VectorXd v = logits.col(c);
    for (size_t r = 0; r < static_cast<size_t>(n); ++r) {
      const double x = v[static_cast<Eigen::Index>(r)];
      if (!std::isfinite(x)) continue;
      if (x < lo[r]) lo[r] = x, lo_at[r] = c;  // strict: a tie keeps its first column
      if (x > hi[r]) hi[r] = x, hi_at[r] = c;
    }
  }
  out.assign(static_cast<size_t>(n), ValueRange{HUGE_VAL, -HUGE_VAL});
  for (Eigen::Index r = 0; r < n; ++r)
    if (hi_at[static_cast<size_t>(r)] >= 0)
      out[static_cast<size_t>(r)] = {s.value(r, lo_at[static_cast<size_t>(r)]), s.value(r, hi_at[static_cast<size_t>(r)])};
  return true;
}

// Scaled and masked logits without a bias: each row's largest |logit| is its
// largest open |score| divided once, as correctly rounded division keeps
// order. A pass over the stored scores, with no division or column copy.
bool logit_row_ranges(const attn::Stage& s, std::vector<ValueRange>& out) {
  const attn::Derivation& d = s.value.derivation();
  const bool masked = d.mask.size() != 0;
  if (s.kind != attn::ValueKind::Signed || d.bias || !(d.divisor > 0) || (masked && d.blocked_value != -HUGE_VAL))
    return false;
  const attn::Mat& source = *s.value.shared();
  const Eigen::Index n = source.rows();
  Eigen::ArrayXd top = Eigen::ArrayXd::Constant(n, -HUGE_VAL);
  for (Eigen::Index c = 0; c < source.cols(); ++c) {
    if (masked) {
      // A plain loop over the mask's bytes, which the compiler turns into
      // vector blends; Eigen's select() on a bool array runs cell by cell
      // (at 2048 tokens, 12 heads of 4 M cells on every X edit).
      const auto* blocked = reinterpret_cast<const unsigned char*>(d.mask.data() + c * n);
      const double* v = source.col(c).data();
      double* t = top.data();
      for (Eigen::Index r = 0; r < n; ++r) t[r] = std::max(t[r], blocked[r] != 0 ? -HUGE_VAL : std::abs(v[r]));
    } else {
      top = top.max(source.col(c).array().abs());
    }
  }
  out.assign(static_cast<size_t>(n), ValueRange{HUGE_VAL, -HUGE_VAL});
  for (Eigen::Index r = 0; r < n; ++r) {
    if (top(r) == -HUGE_VAL) continue;  // every cell blocked: nothing counted
    const double m = top(r) / d.divisor;
    if (!std::isfinite(m)) return false;  // an overflowing logit is not counted: leave it to the scan
    out[static_cast<size_t>(r)] = {-m, m};
  }
  return true;
}

}  // namespace

// Tests check both shortcuts against a full scan, cell by cell
// (tests/app/test_colour_scale.cpp).
bool derived_row_ranges(const attn::Stage& s, std::vector<ValueRange>& out) {
  if (!s.value.derived() || !s.value.shared()) return false;
  return s.value.derivation().softmax ? softmax_row_ranges(s, out) : logit_row_ranges(s, out);
}

namespace {

// Largest |v| of each row (signed), or min..max of each row (probabilities);
// rows with no counted value get {+inf, -inf} so a union ignores them.
// Not counted: non-finite values (masked logits) and blocked zero weights.
// Whole-column array passes, not a loop over cells: a 1024-token, 8-head
// trace has about 50 million cells, and this runs when a new trace arrives.
// A derived stage is read a column at a time (StageValues::col), never made
// whole: at 2048 tokens that would be 33 MB to allocate and fault in.
std::vector<ValueRange> row_ranges(const attn::Stage& s) {
  std::vector<ValueRange> fast;
  if (derived_row_ranges(s, fast)) return fast;
  const Eigen::Index n = s.value.rows(), cols = s.value.cols();
  const bool signed_values = s.kind == attn::ValueKind::Signed;
  const bool* blocked = !signed_values && s.blocked.size() == s.value.size() ? s.blocked.data() : nullptr;
  Eigen::ArrayXd lo = Eigen::ArrayXd::Constant(n, HUGE_VAL), hi = Eigen::ArrayXd::Constant(n, -HUGE_VAL);
  Eigen::VectorXd column;
  // Column by column (Eigen stores columns contiguously), each row's range
  // carried in a vector.
  for (Eigen::Index c = 0; c < cols; ++c) {
    if (s.value.derived()) column = s.value.col(c);
    const Eigen::Map<const Eigen::ArrayXd> v(s.value.derived() ? column.data() : s.value.stored().data() + c * n, n);
    if (signed_values) {
      hi = hi.max(v.isFinite().select(v.abs(), -HUGE_VAL));
      continue;
    }
    auto counted = v.isFinite();
    if (blocked) {
      const Eigen::Map<const Eigen::Array<bool, Eigen::Dynamic, 1>> b(blocked + c * n, n);
      const auto kept = counted && !(b && v == 0);
      lo = lo.min(kept.select(v, HUGE_VAL));
      hi = hi.max(kept.select(v, -HUGE_VAL));
    } else {
      lo = lo.min(counted.select(v, HUGE_VAL));
      hi = hi.max(counted.select(v, -HUGE_VAL));
    }
  }
  if (signed_values) lo = (hi == -HUGE_VAL).select(HUGE_VAL, -hi);
  std::vector<ValueRange> rows(static_cast<size_t>(n));
  for (Eigen::Index r = 0; r < n; ++r) rows[static_cast<size_t>(r)] = {lo(r), hi(r)};
  return rows;
}

ValueRange united(ValueRange a, const ValueRange& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// A range that can be divided by: empty or flat ones fall back to a sensible span.
ValueRange usable(ValueRange g, attn::ValueKind kind) {
  if (kind == attn::ValueKind::Signed) {
    const double m = g.hi > 0 && std::isfinite(g.hi) ? g.hi : 1.0;
    return {-m, m};
  }
  if (!(g.hi >= g.lo) || !std::isfinite(g.hi)) return {0, 1};  // nothing counted
  // One value in the row (a causal first row, a uniform row): show it at full strength.
  if (g.hi - g.lo <= 1e-12 * std::max(1.0, g.hi)) return {0, g.hi > 0 ? g.hi : 1.0};
  return g;
}

std::string number(double v) { return attn::format_number(v, 2); }

}  // namespace

const ValueRange& ColourScale::range_of(int row) const {
  if (rows.empty() || row < 0 || row >= static_cast<int>(rows.size())) return range;
  return rows[static_cast<size_t>(row)];
}

namespace {

// rows[i] = row_ranges(stage i) for each i in `todo`. Each stage is one pass
// over its cells (exps, for derived weights): a big trace's stages are
// shared by the core's threads, taken largest first so that they end together.
void fill_row_ranges(const attn::Trace& trace, std::vector<size_t> todo, RowRanges& rows) {
  auto cells = [&](size_t i) { return static_cast<long long>(trace.stages[i].value.size()); };
  long long total = 0;
  for (size_t i : todo) total += cells(i);
  std::sort(todo.begin(), todo.end(), [&](size_t a, size_t b) { return cells(a) > cells(b); });
  // Below a million cells a second thread costs more than it saves.
  const int threads = total < (1 << 20) ? 1 : 2;
  const double per_stage = 10.0 * static_cast<double>(total) / static_cast<double>(std::max<size_t>(1, todo.size()));
  attn::parallel_for(static_cast<int>(todo.size()), threads, per_stage,
                     [&](int k) { rows[todo[static_cast<size_t>(k)]] = row_ranges(trace.stages[todo[static_cast<size_t>(k)]]); });
}

}  // namespace

RowRanges trace_row_ranges(const attn::Trace& trace) {
  RowRanges rows(trace.stages.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < rows.size(); ++i)
    if (trace.stages[i].kind != attn::ValueKind::Mask) todo.push_back(i);
  fill_row_ranges(trace, std::move(todo), rows);
  return rows;
}

namespace {

// Same values for certain: the same stored matrix, or the same source read
// through the same derivation and mask.
bool same_values(const attn::Stage& a, const attn::Stage& b) {
  // same_source, not shared(): a trace kept for the screen makes its scores
  // on demand (attn::with_scores_on_demand), and comparing must not make them.
  if (a.id != b.id || a.head != b.head || !a.value.same_source(b.value) || a.value.derived() != b.value.derived())
    return false;
  if (!a.value.derived()) return a.blocked.shared() == b.blocked.shared();
  const attn::Derivation &x = a.value.derivation(), &y = b.value.derivation();
  return x.divisor == y.divisor && x.bias == y.bias && x.mask.shared() == y.mask.shared() &&
         x.blocked_value == y.blocked_value && x.softmax == y.softmax && x.softmax_over_rows == y.softmax_over_rows &&
         a.blocked.shared() == b.blocked.shared();
}

}  // namespace

RowRanges trace_row_ranges(const attn::Trace& trace, const attn::Trace& before, const RowRanges& before_ranges) {
  RowRanges rows(trace.stages.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < rows.size(); ++i) {
    const attn::Stage& s = trace.stages[i];
    if (s.kind == attn::ValueKind::Mask) continue;
    if (i < before.stages.size() && i < before_ranges.size() && same_values(s, before.stages[i])) rows[i] = before_ranges[i];
    else todo.push_back(i);
  }
  fill_row_ranges(trace, std::move(todo), rows);
  return rows;
}

namespace {

// Long rows whose median largest weight is small (see kFlatRowPeak).
bool long_and_flat(const attn::Stage& s, const std::vector<ValueRange>& rows) {
  if (s.value.cols() < kLongRowKeys || rows.empty()) return false;
  std::vector<double> peaks;
  peaks.reserve(rows.size());
  for (const ValueRange& r : rows)
    if (r.hi >= r.lo) peaks.push_back(r.hi);
  if (peaks.empty()) return false;
  std::nth_element(peaks.begin(), peaks.begin() + static_cast<std::ptrdiff_t>(peaks.size() / 2), peaks.end());
  return peaks[peaks.size() / 2] < kFlatRowPeak;
}

}  // namespace

std::vector<ColourScale> colour_scales(const attn::Trace& trace, const ColourOptions& o, const RowRanges* ranges) {
  const size_t n = trace.stages.size();
  RowRanges computed;
  if (!ranges || ranges->size() != n) computed = trace_row_ranges(trace);
  const RowRanges& rows = computed.empty() ? *ranges : computed;
  auto whole = [&](size_t i) {
    ValueRange g{HUGE_VAL, -HUGE_VAL};
    for (const ValueRange& r : rows[i]) g = united(g, r);
    return g;
  };
  // Which stages pool their ranges: every signed stage (global), or the
  // stages of one id and shape (every head's weights) when shared.
  const bool shared = o.shared_range && o.contrast != Contrast::Global;
  auto group_of = [&](size_t i) -> std::string {
    const attn::Stage& s = trace.stages[i];
    if (o.contrast == Contrast::Global) return s.kind == attn::ValueKind::Signed ? "signed" : "";
    if (!shared) return "";
    return attn::to_string(s.id) + "/" + std::to_string(s.value.rows()) + "x" + std::to_string(s.value.cols());
  };
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < n; ++i)
    if (const std::string g = group_of(i); !g.empty()) groups[g].push_back(i);

  std::vector<ColourScale> out(n);
  for (size_t i = 0; i < n; ++i) {
    const attn::Stage& s = trace.stages[i];
    ColourScale& sc = out[i];
    sc.kind = s.kind;
    sc.contrast = o.contrast;
    if (s.kind == attn::ValueKind::Mask) {
      sc.map = ColourmapId::Mask;
      continue;
    }
    const bool probability = s.kind == attn::ValueKind::Probability;
    sc.map = probability ? o.probability_map : o.signed_map;
    sc.log = probability && o.log_weights;
    const auto group = groups.find(group_of(i));
    const std::vector<size_t> members = group == groups.end() ? std::vector<size_t>{i} : group->second;
    // Say "all heads" only where it changed something (probabilities keep 0..1 per grid).
    sc.shared = shared && members.size() > 1 && (o.contrast == Contrast::Row || o.contrast == Contrast::Percentile || !probability);
    if (o.contrast == Contrast::Row) {
      sc.rows = rows[i];
      for (size_t m : members)
        for (size_t r = 0; r < sc.rows.size() && r < rows[m].size(); ++r) sc.rows[r] = united(sc.rows[r], rows[m][r]);
      ValueRange all{HUGE_VAL, -HUGE_VAL};
      for (ValueRange& r : sc.rows) all = united(all, r), r = usable(r, s.kind);
      sc.range = usable(all, s.kind);
    } else if (probability && o.contrast == Contrast::Grid && long_and_flat(s, rows[i])) {
      // One 0..1 range would paint the grid white: its rows get their own.
      sc.contrast = Contrast::Row;
      sc.auto_row = true;
      sc.rows = rows[i];
      ValueRange all{HUGE_VAL, -HUGE_VAL};
      for (ValueRange& r : sc.rows) all = united(all, r), r = usable(r, s.kind);
      sc.range = usable(all, s.kind);
    } else if (o.contrast == Contrast::Percentile) {
      // A few large values (one token's huge output) no longer wash the rest out.
      sc.robust = true;
      const double m = robust_magnitude(trace, members);
      if (probability) {
        sc.range = m > 0 ? ValueRange{0, m} : ValueRange{0, 1};
      } else {
        ValueRange all{HUGE_VAL, -HUGE_VAL};
        for (size_t k : members) all = united(all, whole(k));
        sc.range = m > 0 ? ValueRange{-m, m} : usable(all, s.kind);
      }
    } else if (probability) {
      sc.range = {0, 1};  // a weight of 0.5 looks the same in every grid
    } else {
      ValueRange all{HUGE_VAL, -HUGE_VAL};
      for (size_t m : members) all = united(all, whole(m));
      sc.range = usable(all, s.kind);
    }
  }
  return out;
}

double robust_magnitude(const attn::Trace& trace, const std::vector<size_t>& stages) {
  std::vector<double> seen;
  for (size_t i : stages) {
    const attn::Stage& s = trace.stages[i];
    const long rows = static_cast<long>(s.value.rows()), cols = static_cast<long>(s.value.cols()), n = rows * cols;
    const long stride = std::max(1L, (n + kRobustSample - 1) / kRobustSample);
    const bool probability = s.kind == attn::ValueKind::Probability;
    for (long k = 0; k < n; k += stride) {
      const long r = k / cols, c = k % cols;
      if (s.is_blocked(r, c)) continue;
      const double v = s.value(r, c);
      if (std::isfinite(v)) seen.push_back(probability ? v : std::abs(v));
    }
  }
  if (seen.empty()) return 0;
  // The nearest rank: the smallest value with at least 99% of them at or below it.
  const auto at = static_cast<std::ptrdiff_t>(std::ceil(kRobustPercentile * static_cast<double>(seen.size()))) - 1;
  std::nth_element(seen.begin(), seen.begin() + std::max<std::ptrdiff_t>(at, 0), seen.end());
  return seen[static_cast<size_t>(std::max<std::ptrdiff_t>(at, 0))];
}

bool beyond(const ColourScale& s, int row, double v) {
  if (!s.robust || !std::isfinite(v)) return false;
  const ValueRange& g = s.range_of(row);
  return s.kind == attn::ValueKind::Signed ? std::abs(v) > g.hi : v > g.hi || v < g.lo;
}

float coordinate(const ColourScale& s, int row, double v) {
  return coordinate_in(s, s.range_of(row), colourmap(s.map).diverging, v);
}

Legend legend_of(const ColourScale& s) {
  Legend l;
  const bool per_row = s.contrast == Contrast::Row;
  if (s.kind == attn::ValueKind::Mask) {
    l.lo = "0", l.hi = "1";  // open, blocked
    return l;
  }
  if (s.kind == attn::ValueKind::Signed) {
    l.lo = per_row ? "−max" : number(s.range.lo);
    l.hi = per_row ? "+max" : number(s.range.hi);
    l.zero = "0";
    l.zero_u = 0.5f;
  } else {
    if (colourmap(s.map).diverging) l.u0 = 0.5f;
    l.lo = per_row ? "min" : number(s.log ? std::max(s.range.lo, kLogFloor) : s.range.lo);
    l.hi = per_row ? "max" : number(s.range.hi);
    if (!per_row && !s.log && s.range.lo <= 0) l.zero_u = 0;  // "0" is already the low end
  }
  std::vector<std::string> notes;
  if (per_row) notes.push_back(s.auto_row ? "of each row (long, flat rows)" : "of each row");
  if (s.log) notes.push_back("log scale");
  if (s.contrast == Contrast::Global && s.kind == attn::ValueKind::Signed) notes.push_back("all grids");
  if (s.shared) notes.push_back("all heads");
  if (s.robust) notes.push_back("99th percentile, cells beyond marked");
  for (const std::string& n : notes) l.note += (l.note.empty() ? "" : ", ") + n;
  return l;
}

}  // namespace model
