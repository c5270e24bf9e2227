// A stage's numbers. Most stages store their matrix; the steps of a head
// that are cheap to redo (scaled = scores ÷ d, + bias, masked = −∞ where
// blocked, the softmax weights from their line's max and sum, weights zeroed
// after softmax) are derived cell by cell from a stored matrix when read,
// with exactly the arithmetic the full computation did, so what a student
// sees and what an explanation says are the same numbers — and a 2048-token,
// 12-head trace holds one n×n matrix per head instead of five.
// The blocked mask is shared the same way by every stage that shows it.
// A stored matrix may also be made on demand (MatrixOnDemand): a trace kept
// only for the screen can drop its large scores and make them again, bit
// for bit, when something reads them.
#pragma once

#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>

#include "attn/base/matrix.hpp"

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

// A scaled score under a soft cap (Scenario::softcap): every path that
// makes a logit calls this, so a cell read and the softmax agree bit for bit.
inline double soft_capped(double v, double cap) { return cap > 0 ? cap * std::tanh(v / cap) : v; }

// How a derived stage's cell is made from its source: source ÷ divisor
// (then the soft cap, if any), plus bias when there is one, then `blocked_value` where the mask blocks.
// With `softmax`, that logit then becomes its weight: exp(logit − max) ÷ sum
// of its line (a row when softmax_over_rows, else a column), through the
// softmax's own exp, so the weight equals the one the softmax wrote.
struct Derivation {
  double divisor = 1;
  double cap = 0;                   // after the division: cap · tanh(v / cap); 0 for none
  std::shared_ptr<const Mat> bias;  // ALiBi; null for none
  SharedMask mask;                  // cells replaced by blocked_value
  double blocked_value = 0;
  std::shared_ptr<const SoftmaxStats> softmax;  // null: the logit itself
  bool softmax_over_rows = true;
};

// A matrix made when first read, from any thread, and kept from then on.
// `make` must give the same bits every time (a head's scores, from its Q
// and K by the very product that first made them), so a reader cannot tell
// whether it was made now or kept all along.
class MatrixOnDemand {
 public:
  MatrixOnDemand(Eigen::Index rows, Eigen::Index cols, std::function<Mat()> make)
      : rows_(rows), cols_(cols), make_(std::move(make)) {}
  Eigen::Index rows() const { return rows_; }
  Eigen::Index cols() const { return cols_; }
  // The matrix, made by the first call (others wait for it).
  const std::shared_ptr<const Mat>& get() const;
  bool made() const { return made_.load(); }

 private:
  Eigen::Index rows_, cols_;
  std::function<Mat()> make_;
  mutable std::once_flag once_;
  mutable std::shared_ptr<const Mat> m_;
  mutable std::atomic<bool> made_{false};
};

class StageValues {
 public:
  StageValues() : held_(std::make_shared<const Mat>()) {}
  StageValues(Mat m);  // NOLINT: implicit on purpose (large storage is recycled when freed: trace.hpp)
  StageValues(std::shared_ptr<const Mat> source, Derivation d)
      : held_(std::move(source)), derived_(true), d_(std::move(d)) {}
  // Stored values, or (with a derivation) a derived stage's source, made on demand.
  explicit StageValues(std::shared_ptr<const MatrixOnDemand> m) : on_demand_(std::move(m)) {}
  StageValues(std::shared_ptr<const MatrixOnDemand> source, Derivation d)
      : on_demand_(std::move(source)), derived_(true), d_(std::move(d)) {}

  Eigen::Index rows() const { return on_demand_ ? on_demand_->rows() : held_->rows(); }
  Eigen::Index cols() const { return on_demand_ ? on_demand_->cols() : held_->cols(); }
  Eigen::Index size() const { return rows() * cols(); }
  double operator()(Eigen::Index r, Eigen::Index c) const {
    if (!derived_) return matrix()(r, c);
    return d_.softmax ? softmax_weight(r, c) : logit(r, c);
  }

  Eigen::RowVectorXd row(Eigen::Index r) const;
  Eigen::VectorXd col(Eigen::Index c) const;

  bool derived() const { return derived_; }
  // How a derived stage reads its source (an identity derivation for a stored one).
  const Derivation& derivation() const { return d_; }
  // The whole matrix: the stored one, or one made from the source now.
  Mat dense() const;
  // The stored matrix (for a derived stage, its source), to share with
  // stages derived from it. Made now if it is made on demand.
  const std::shared_ptr<const Mat>& shared() const { return on_demand_ ? on_demand_->get() : held_; }
  // The stored matrix; only for stages that store theirs.
  const Mat& stored() const { return matrix(); }
  bool allFinite() const;  // what a trace promises for every stage but masked logits

  // The stored matrix or source when it is made on demand (else null).
  const std::shared_ptr<const MatrixOnDemand>& on_demand() const { return on_demand_; }
  // The same values for certain (the same stored matrix or source), told
  // without making anything that is made on demand.
  bool same_source(const StageValues& o) const {
    return on_demand_ || o.on_demand_ ? on_demand_ == o.on_demand_ : held_ == o.held_;
  }

 private:
  const Mat& matrix() const { return on_demand_ ? *on_demand_->get() : *held_; }
  // source ÷ divisor + bias, or blocked_value where masked: a derived cell
  // before any softmax.
  double logit(Eigen::Index r, Eigen::Index c) const {
    if (d_.mask.size() && d_.mask(r, c)) return d_.blocked_value;
    double v = soft_capped(matrix()(r, c) / d_.divisor, d_.cap);
    if (d_.bias) v += (*d_.bias)(r, c);
    return v;
  }
  double softmax_weight(Eigen::Index r, Eigen::Index c) const;
  std::shared_ptr<const Mat> held_;  // the stored matrix, or a derived stage's source
  std::shared_ptr<const MatrixOnDemand> on_demand_;  // instead of held_, when made on demand
  bool derived_ = false;
  Derivation d_;
};

}  // namespace attn
