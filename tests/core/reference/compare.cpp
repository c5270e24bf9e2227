// Worst-element search and whole-trace comparison used by every reference,
// scenario and golden test. Messages name the stage, head, cell and both
// values, which is what one needs to find a numerical bug quickly.
#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ref {

double element_error(double got, double want) {
  if (std::isnan(got) || std::isnan(want)) return std::numeric_limits<double>::infinity();
  if (std::isinf(got) || std::isinf(want))
    return got == want ? 0.0 : std::numeric_limits<double>::infinity();
  return std::abs(got - want) / std::max(1.0, std::abs(want));
}

Worst worst_element(const attn::Mat& got, const RMat& want) {
  Worst w;
  w.got_rows = static_cast<int>(got.rows());
  w.got_cols = static_cast<int>(got.cols());
  w.want_rows = rows_of(want);
  w.want_cols = cols_of(want);
  if (w.got_rows != w.want_rows || w.got_cols != w.want_cols) {
    w.shape_ok = false;
    w.error = std::numeric_limits<double>::infinity();
    return w;
  }
  w.error = -1;
  // Raw column-major access: Eigen's checked operator() dominates Debug runs
  // on the 1024-token scene.
  const double* data = got.data();
  const Eigen::Index stride = got.rows();
  for (int i = 0; i < w.got_rows; ++i) {
    const std::vector<double>& want_row = want[i];
    for (int j = 0; j < w.got_cols; ++j) {
      const double g = data[i + j * stride];
      const double e = element_error(g, want_row[j]);
      if (e > w.error) {
        w.error = e;
        w.row = i;
        w.col = j;
        w.got = g;
        w.want = want_row[j];
      }
    }
  }
  if (w.error < 0) w.error = 0;
  return w;
}

bool within(const Worst& w, double tol) { return w.shape_ok && w.error <= tol; }

std::string describe(const std::string& what, const Worst& w) {
  std::ostringstream os;
  os.precision(17);
  os << what << ": ";
  if (!w.shape_ok) {
    os << "shape " << w.got_rows << "x" << w.got_cols << ", expected " << w.want_rows << "x"
       << w.want_cols;
  } else if (w.row < 0) {
    os << "empty";
  } else {
    os << "worst (" << w.row << ", " << w.col << "): got " << w.got << " want " << w.want
       << " (error " << w.error << ")";
  }
  return os.str();
}

namespace {

std::string stage_name(const std::string& id, int head) {
  return head < 0 ? id : id + " head " + std::to_string(head);
}
std::string stage_name(attn::StageKind id, int head) { return stage_name(attn::to_string(id), head); }

void compare_blocked(const attn::Stage& st, const RefTrace& want, std::vector<std::string>& out) {
  bool any = false;
  for (const auto& row : want.blocked)
    for (bool b : row) any = any || b;
  if (st.blocked.size() == 0) {
    if (any) out.push_back(stage_name(st.id, st.head) + ": blocked flags missing");
    return;
  }
  const int n_q = static_cast<int>(want.blocked.size());
  const int n_k = n_q ? static_cast<int>(want.blocked[0].size()) : 0;
  if (st.blocked.rows() != n_q || st.blocked.cols() != n_k) {
    out.push_back(stage_name(st.id, st.head) + ": blocked flags have the wrong shape");
    return;
  }
  const bool* flags = st.blocked.data();  // column-major, unchecked for speed
  for (int i = 0; i < n_q; ++i)
    for (int j = 0; j < n_k; ++j)
      if (flags[i + static_cast<Eigen::Index>(j) * n_q] != want.blocked[i][j]) {
        out.push_back(stage_name(st.id, st.head) + ": blocked(" + std::to_string(i) + ", " +
                      std::to_string(j) + ") is " + (st.blocked(i, j) ? "true" : "false"));
        return;
      }
}

}  // namespace

std::vector<std::string> compare_traces(const attn::Trace& got, const RefTrace& want, double tol,
                                        double* worst_seen) {
  std::vector<std::string> out;
  for (const auto& st : got.stages)
    if (!want.find(attn::to_string(st.id), st.head)) out.push_back("unexpected stage " + stage_name(st.id, st.head));
  for (const auto& rs : want.stages) {
    // The reference names its stages by string, as the articles and files do.
    const attn::Stage* st = got.find_named(rs.id, rs.head);
    const std::string name = stage_name(rs.id, rs.head);
    if (!st) {
      out.push_back("missing stage " + name);
      continue;
    }
    const Worst w = worst_element(st->value.dense(), rs.value);
    if (!within(w, tol)) out.push_back(describe(name, w));
    if (worst_seen && w.shape_ok && w.error > *worst_seen) *worst_seen = w.error;
    if (rs.id == "masked" || rs.id == "weights") compare_blocked(*st, want, out);
    if (rs.id == "weights" && got.mask_mode == attn::MaskMode::BeforeSoftmax &&
        st->fully_masked != want.fully_masked) {
      std::string list;
      for (int r : st->fully_masked) list += " " + std::to_string(r);
      std::string expected;
      for (int r : want.fully_masked) expected += " " + std::to_string(r);
      out.push_back(name + ": fully_masked is [" + list + " ] expected [" + expected + " ]");
    }
  }
  return out;
}

bool has_nan(const attn::Trace& t) {
  for (const auto& st : t.stages)
    if (st.value.dense().hasNaN()) return true;
  return false;
}

}  // namespace ref
