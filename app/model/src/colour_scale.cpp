// Colour ranges. A cell drawn with the masked look (blocked and zero, or a
// −∞ logit) never widens a range: it is hatched, not coloured, and its zero
// would pin every causal row's minimum to 0.
#include "viz/colour_scale.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "attn/explain.hpp"

namespace viz {
namespace {

bool counts(const attn::Stage& s, Eigen::Index r, Eigen::Index c, double v) {
  if (!std::isfinite(v)) return false;
  return !(s.kind == attn::ValueKind::Probability && v == 0 && s.is_blocked(static_cast<int>(r), static_cast<int>(c)));
}

// Largest |v| of each row (signed), or min..max of each row (probabilities);
// rows with no counted value get {+inf, -inf} so a union ignores them.
std::vector<ValueRange> row_ranges(const attn::Stage& s) {
  std::vector<ValueRange> rows(static_cast<size_t>(s.value.rows()), ValueRange{HUGE_VAL, -HUGE_VAL});
  for (Eigen::Index c = 0; c < s.value.cols(); ++c)
    for (Eigen::Index r = 0; r < s.value.rows(); ++r) {
      const double v = s.value(r, c);
      if (!counts(s, r, c, v)) continue;
      ValueRange& g = rows[static_cast<size_t>(r)];
      if (s.kind == attn::ValueKind::Signed) g.lo = std::min(g.lo, -std::abs(v)), g.hi = std::max(g.hi, std::abs(v));
      else g.lo = std::min(g.lo, v), g.hi = std::max(g.hi, v);
    }
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

const ValueRange& ColorScale::range_of(int row) const {
  if (rows.empty() || row < 0 || row >= static_cast<int>(rows.size())) return range;
  return rows[static_cast<size_t>(row)];
}

std::vector<ColorScale> color_scales(const attn::Trace& trace, const ColourOptions& o) {
  const size_t n = trace.stages.size();
  std::vector<std::vector<ValueRange>> rows(n);
  for (size_t i = 0; i < n; ++i)
    if (trace.stages[i].kind != attn::ValueKind::Mask) rows[i] = row_ranges(trace.stages[i]);
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
    return s.id + "/" + std::to_string(s.value.rows()) + "x" + std::to_string(s.value.cols());
  };
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < n; ++i)
    if (const std::string g = group_of(i); !g.empty()) groups[g].push_back(i);

  std::vector<ColorScale> out(n);
  for (size_t i = 0; i < n; ++i) {
    const attn::Stage& s = trace.stages[i];
    ColorScale& sc = out[i];
    sc.kind = s.kind;
    sc.contrast = o.contrast;
    if (s.kind == attn::ValueKind::Mask) {
      sc.map = ColormapId::Mask;
      continue;
    }
    const bool probability = s.kind == attn::ValueKind::Probability;
    sc.map = probability ? o.probability_map : o.signed_map;
    sc.log = probability && o.log_weights;
    const auto group = groups.find(group_of(i));
    const std::vector<size_t> members = group == groups.end() ? std::vector<size_t>{i} : group->second;
    // Say "all heads" only where it changed something (probabilities keep 0..1 per grid).
    sc.shared = shared && members.size() > 1 && (o.contrast == Contrast::Row || !probability);
    if (o.contrast == Contrast::Row) {
      sc.rows = rows[i];
      for (size_t m : members)
        for (size_t r = 0; r < sc.rows.size() && r < rows[m].size(); ++r) sc.rows[r] = united(sc.rows[r], rows[m][r]);
      ValueRange all{HUGE_VAL, -HUGE_VAL};
      for (ValueRange& r : sc.rows) all = united(all, r), r = usable(r, s.kind);
      sc.range = usable(all, s.kind);
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

float coordinate(const ColorScale& s, int row, double v) {
  if (s.kind == attn::ValueKind::Mask) return v > 0.5 ? 1.0f : 0.0f;
  const ValueRange& g = s.range_of(row);
  if (s.kind == attn::ValueKind::Signed) {
    if (std::isnan(v)) return 0.5f;
    return static_cast<float>(0.5 + 0.5 * std::clamp(v / g.hi, -1.0, 1.0));
  }
  double t;
  if (std::isnan(v)) {
    t = 0;
  } else if (s.log) {
    const double lo = std::log10(std::max(g.lo, kLogFloor)), hi = std::log10(std::max(g.hi, kLogFloor));
    t = hi > lo ? (std::log10(std::max(v, kLogFloor)) - lo) / (hi - lo) : (v >= g.hi ? 1.0 : 0.0);
  } else {
    t = (v - g.lo) / (g.hi - g.lo);
  }
  t = std::clamp(t, 0.0, 1.0);
  return static_cast<float>(colormap(s.map).diverging ? 0.5 + 0.5 * t : t);
}

Legend legend_of(const ColorScale& s) {
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
    if (colormap(s.map).diverging) l.u0 = 0.5f;
    l.lo = per_row ? "min" : number(s.log ? std::max(s.range.lo, kLogFloor) : s.range.lo);
    l.hi = per_row ? "max" : number(s.range.hi);
    if (!per_row && !s.log && s.range.lo <= 0) l.zero_u = 0;  // "0" is already the low end
  }
  std::vector<std::string> notes;
  if (per_row) notes.push_back("of each row");
  if (s.log) notes.push_back("log scale");
  if (s.contrast == Contrast::Global && s.kind == attn::ValueKind::Signed) notes.push_back("all grids");
  if (s.shared) notes.push_back("all heads");
  for (const std::string& n : notes) l.note += (l.note.empty() ? "" : ", ") + n;
  return l;
}

}  // namespace viz
