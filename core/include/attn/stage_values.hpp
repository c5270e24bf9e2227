// A stage's numbers. Most stages store their matrix; the steps of a head
// that are cheap to redo (scaled = scores ÷ d, + bias, masked = −∞ where
// blocked, the softmax weights from their line's max and sum, weights zeroed
// after softmax) are derived cell by cell from a stored matrix when read,
// with exactly the arithmetic the full computation did, so what a student
// sees and what an explanation says are the same numbers — and a 2048-token,
// 12-head trace holds one n×n matrix per head instead of five.
// The blocked mask is shared the same way by every stage that shows it.
#pragma once

#include <memory>

#include "attn/matrix.hpp"

namespace attn {

// A mask shared by the stages that show it; empty when nothing is blocked.
class SharedMask {
 public:
  SharedMask() = default;
  SharedMask(BoolMat m) : m_(std::make_shared<const BoolMat>(std::move(m))) {}  // NOLINT: implicit on purpose
  Eigen::Index rows() const { return m_ ? m_->rows() : 0; }
  Eigen::Index cols() const { return m_ ? m_->cols() : 0; }
  Eigen::Index size() const { return m_ ? m_->size() : 0; }
  bool operator()(Eigen::Index r, Eigen::Index c) const { return (*m_)(r, c); }
  bool any() const { return m_ && m_->any(); }
  const bool* data() const { return m_ ? m_->data() : nullptr; }
  const BoolMat& mat() const;  // an empty matrix when there is none
  const std::shared_ptr<const BoolMat>& shared() const { return m_; }

 private:
  std::shared_ptr<const BoolMat> m_;
};

// Numbers the softmax used, kept so any weight can be explained and derived.
// Entries are per row for the keys axis, per column for the queries axis.
struct SoftmaxStats {
  Vec max;  // the maximum logit subtracted for stability (0 for a line with every entry blocked)
  Vec sum;  // sum of exp over the normalised line (0 when every entry is blocked)
};

// How a derived stage's cell is made from its source: source ÷ divisor,
// plus bias when there is one, then `blocked_value` where the mask blocks.
// With `softmax`, that logit then becomes its weight: exp(logit − max) ÷ sum
// of its line (a row when softmax_over_rows, else a column), through the
// softmax's own exp, so the weight equals the one the softmax wrote.
struct Derivation {
  double divisor = 1;
  std::shared_ptr<const Mat> bias;  // ALiBi; null for none
  SharedMask mask;                  // cells replaced by blocked_value
  double blocked_value = 0;
  std::shared_ptr<const SoftmaxStats> softmax;  // null: the logit itself
  bool softmax_over_rows = true;
};

class StageValues {
 public:
  StageValues() : stored_(std::make_shared<const Mat>()) {}
  StageValues(Mat m) : stored_(std::make_shared<const Mat>(std::move(m))) {}  // NOLINT: implicit on purpose
  StageValues(std::shared_ptr<const Mat> source, Derivation d) : source_(std::move(source)), d_(std::move(d)) {}

  Eigen::Index rows() const { return matrix().rows(); }
  Eigen::Index cols() const { return matrix().cols(); }
  Eigen::Index size() const { return matrix().size(); }
  double operator()(Eigen::Index r, Eigen::Index c) const {
    if (stored_) return (*stored_)(r, c);
    return d_.softmax ? softmax_weight(r, c) : logit(r, c);
  }

  Eigen::RowVectorXd row(Eigen::Index r) const;
  Eigen::VectorXd col(Eigen::Index c) const;

  bool derived() const { return !stored_; }
  // How a derived stage reads its source (an identity derivation for a stored one).
  const Derivation& derivation() const { return d_; }
  // The whole matrix: the stored one, or one made from the source now.
  Mat dense() const;
  // The stored matrix (for a derived stage, its source), to share with stages derived from it.
  const std::shared_ptr<const Mat>& shared() const { return stored_ ? stored_ : source_; }
  // The stored matrix; only for stages that store theirs.
  const Mat& stored() const { return *stored_; }
  bool allFinite() const;  // what a trace promises for every stage but masked logits

 private:
  const Mat& matrix() const { return stored_ ? *stored_ : *source_; }
  // source ÷ divisor + bias, or blocked_value where masked: a derived cell
  // before any softmax.
  double logit(Eigen::Index r, Eigen::Index c) const {
    if (d_.mask.size() && d_.mask(r, c)) return d_.blocked_value;
    double v = (*source_)(r, c) / d_.divisor;
    if (d_.bias) v += (*d_.bias)(r, c);
    return v;
  }
  double softmax_weight(Eigen::Index r, Eigen::Index c) const;
  std::shared_ptr<const Mat> stored_;
  std::shared_ptr<const Mat> source_;
  Derivation d_;
};

}  // namespace attn
