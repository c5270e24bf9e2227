// Matrix to JSON row conversions (see matrix_json.hpp). Explicit (r, c)
// indexing keeps the row-major output independent of Eigen's storage order.
#include "json/matrix_json.hpp"

#include <cmath>

#include "attn/io/scenario_file.hpp"
#include "json/field_path.hpp"

namespace attn::io::detail {

using nlohmann::json;

namespace {

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

}  // namespace

json matrix_rows(const Mat& m) {
  json rows = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(number_or_null(m(r, c)));
    rows.push_back(std::move(row));
  }
  return rows;
}

json flag_rows(const BoolMat& m) {
  json rows = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c) ? 1 : 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

void require_finite(double v, const std::string& cell) {
  if (!std::isfinite(v)) throw FormatError(cell + ": not finite; cannot save it (JSON has no NaN or infinity)");
}

}  // namespace

json finite_rows(const Mat& m, const std::string& path) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      require_finite(m(r, c), path_index(path_index(path, static_cast<std::size_t>(r)), static_cast<std::size_t>(c)));
  return matrix_rows(m);
}

json finite_list(const Vec& v, const std::string& path) {
  json out = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    require_finite(v(i), path_index(path, static_cast<std::size_t>(i)));
    out.push_back(v(i));
  }
  return out;
}

}  // namespace attn::io::detail
