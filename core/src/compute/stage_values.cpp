// Stage values: materialising a derived stage applies the cell formula of
// stage_values.hpp to every cell, column by column (Eigen's order), so the
// dense matrix equals cell-by-cell reads exactly.
#include "attn/compute/stage_values.hpp"

#include <cmath>

#include "base/finite.hpp"
#include "execution/recycled_storage.hpp"
#include "compute/softmax.hpp"

namespace attn {

const BoolMat& SharedMask::mat() const {
  static const BoolMat kEmpty;
  return m_ ? *m_ : kEmpty;
}

StageValues::StageValues(Mat m) : held_(detail::share_recycled(std::move(m))) {}

const std::shared_ptr<const Mat>& MatrixOnDemand::get() const {
  std::call_once(once_, [this] {
    m_ = detail::share_recycled(make_());
    made_ = true;
  });
  return m_;
}

double StageValues::softmax_weight(Eigen::Index r, Eigen::Index c) const {
  const Eigen::Index line = d_.softmax_over_rows ? r : c;
  const double sum = d_.softmax->sum(line);
  return detail::exp_like_softmax(logit(r, c) - d_.softmax->max(line)) / (sum == 0 ? 1.0 : sum);
}

Mat StageValues::dense() const {
  if (!derived_) return matrix();
  if (d_.softmax) return detail::softmax_weights(matrix(), d_);
  // Whole-array steps, each the same IEEE operation per cell as operator()
  // (a division, then an addition, then the mask), so the results are equal.
  Mat out = d_.divisor == 1 ? matrix() : Mat(matrix().array() / d_.divisor);
  if (d_.cap > 0) out = out.unaryExpr([cap = d_.cap](double v) { return soft_capped(v, cap); });
  if (d_.bias) out += *d_.bias;
  if (d_.mask.size()) out = d_.mask.mat().select(d_.blocked_value, out);
  return out;
}

Eigen::RowVectorXd StageValues::row(Eigen::Index r) const {
  if (!derived_) return matrix().row(r);
  Eigen::RowVectorXd out(cols());
  for (Eigen::Index c = 0; c < out.size(); ++c) out(c) = (*this)(r, c);
  return out;
}

Eigen::VectorXd StageValues::col(Eigen::Index c) const {
  if (!derived_) return matrix().col(c);
  // Whole-column passes (vectorised), the same operations as a cell read.
  Eigen::VectorXd out(rows());
  if (d_.softmax) detail::softmax_weights_column(matrix(), d_, c, out.data());
  else detail::logits_column_into(matrix(), d_, c, out.data());
  return out;
}

bool StageValues::allFinite() const {
  if (!derived_) return detail::all_finite(matrix());
  for (Eigen::Index c = 0; c < cols(); ++c)
    for (Eigen::Index r = 0; r < rows(); ++r)
      if (!std::isfinite((*this)(r, c))) return false;
  return true;
}

}  // namespace attn
