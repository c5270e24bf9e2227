// Conversions from Eigen matrices (column-major) to JSON rows (row-major).
// Shared by the scenario writer and the trace writer so both agree that a
// JSON row is a token, i.e. value(r, c) lands at data[r][c].
#pragma once

#include <nlohmann/json.hpp>

#include "attn/matrix.hpp"

namespace attn::io::detail {

// Non-finite cells (masked -inf logits) become null: JSON has no infinity.
nlohmann::json matrix_rows(const Mat& m);
nlohmann::json flag_rows(const BoolMat& m);  // 0/1 integers

}  // namespace attn::io::detail
