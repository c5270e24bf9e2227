// Matrix to JSON row conversions (see matrix_json.hpp). Explicit (r, c)
// indexing keeps the row-major output independent of Eigen's storage order.
#include "matrix_json.hpp"

#include <cmath>

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

}  // namespace attn::io::detail
