// Stage assembly and the overflow guard: a value that overflowed is reported
// with its stage and cell instead of silently turning into NaN downstream.
#include "compute/stage_builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

#include "base/finite.hpp"

namespace attn::detail {

std::vector<std::string> token_labels(const std::vector<std::string>& given, int n,
                                      const char* prefix) {
  if ((int)given.size() == n) return given;
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

Labels index_labels(int n) {
  // A memo of a pure function, shared by every thread: the lists are
  // immutable once made. Lengths are widths and token counts, so only a few
  // are ever asked for; past kKept the lists are made each time.
  constexpr size_t kKept = 64;
  static std::mutex mutex;
  static std::map<int, Labels> made;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = made.find(n); it != made.end()) return it->second;
  }
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) out.push_back(std::to_string(i));
  Labels labels(std::move(out));
  std::lock_guard<std::mutex> lock(mutex);
  if (made.size() < kKept) made.emplace(n, labels);
  return labels;
}

std::string plain_title(StageKind kind) { return std::string(info_of(kind).title); }
std::string plain_formula(StageKind kind) { return std::string(info_of(kind).formula); }

namespace {

[[noreturn]] void overflow(const StageSpec& spec, Eigen::Index r, Eigen::Index c, double v) {
  std::ostringstream os;
  os << "stage \"" << name_of(spec.id) << "\"";
  if (spec.head >= 0) os << " (head " << spec.head << ")";
  os << ", cell [" << r << "][" << c << "]: value " << (std::isnan(v) ? "is not a number" : "overflowed")
     << " (" << spec.formula << "); the inputs are too large for double precision";
  throw ComputeError(os.str(), {spec.id, spec.head}, static_cast<int>(r), static_cast<int>(c));
}

}  // namespace

Stage& push_stage(Trace& trace, StageSpec spec, StageValues value, SharedMask blocked, bool allow_blocked_minus_inf,
                  bool checked) {
  // A stored matrix that is all finite (one vectorised pass) needs no more.
  const bool fine = checked || (!value.derived() && all_finite(value.stored()));
  if (!fine)
    for (Eigen::Index c = 0; c < value.cols(); ++c)
      for (Eigen::Index r = 0; r < value.rows(); ++r) {
        const double v = value(r, c);
        if (std::isfinite(v)) continue;
        const bool ok = allow_blocked_minus_inf && blocked.size() && blocked(r, c) &&
                        v == -std::numeric_limits<double>::infinity();
        if (!ok) overflow(spec, r, c, v);
      }
  Stage s;
  s.id = spec.id;
  s.head = spec.head;
  s.title = std::move(spec.title);
  s.formula = std::move(spec.formula);
  s.inputs = std::move(spec.inputs);
  s.kind = spec.kind;
  s.row_labels = std::move(spec.rows);
  s.col_labels = std::move(spec.cols);
  s.value = std::move(value);
  s.blocked = std::move(blocked);
  trace.stages.push_back(std::move(s));
  return trace.stages.back();
}

}  // namespace attn::detail
