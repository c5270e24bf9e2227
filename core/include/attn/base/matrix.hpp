// Matrix aliases shared by the whole core.
// Rows are tokens, as in the articles (Q = X * W_Q); everything is double
// precision so the trace can serve as a teaching reference.
#pragma once

#include <Eigen/Dense>

namespace attn {

using Mat = Eigen::MatrixXd;  // column-major; convert explicitly at GL/JSON boundaries
using Vec = Eigen::VectorXd;
using BoolMat = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;

}  // namespace attn
