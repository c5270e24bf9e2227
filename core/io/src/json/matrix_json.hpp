// Conversions from Eigen matrices (column-major) to JSON rows (row-major).
// Shared by the scenario writer and the trace writer so both agree that a
// JSON row is a token, i.e. value(r, c) lands at data[r][c].
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "attn/base/matrix.hpp"

namespace attn::io::detail {

// Non-finite cells (masked -inf logits) become null: JSON has no infinity.
nlohmann::json matrix_rows(const Mat& m);
nlohmann::json flag_rows(const BoolMat& m);  // 0/1 integers

// For files that must load again: JSON cannot hold NaN or infinity, so a
// non-finite cell is refused (FormatError naming path[r][c]) instead of
// being written as null.
nlohmann::json finite_rows(const Mat& m, const std::string& path);
nlohmann::json finite_list(const Vec& v, const std::string& path);  // a flat array

}  // namespace attn::io::detail
