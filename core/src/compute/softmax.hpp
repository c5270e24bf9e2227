// Internal: numerically stable masked softmax over one axis, reading the
// logits as a stage derivation (scores ÷ d + bias, −∞ where blocked) so no
// n×n logits matrix is ever built. Every exp goes through exp_packet(), four
// values at a time, so softmax_exp() can recompute any entry bit for bit.
#pragma once

#include <limits>
#include <vector>

#include "attn/compute/trace.hpp"

namespace attn::detail {

// What a blocked logit becomes: the softmax gives it a weight of exactly 0.
inline constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

struct SoftmaxResult {
  Mat weights;             // (n_q, n_k)
  SoftmaxStats stats;      // max and sum per normalised line
  std::vector<int> empty;  // lines (rows or columns) with every entry blocked
};

// Blocked entries (d.mask) get weight exactly 0; a line with every entry
// blocked gets all-zero weights instead of 0/0.
SoftmaxResult masked_softmax(const Mat& scores, const Derivation& logits, SoftmaxAxis axis);

// The keys-axis softmax before its division: exps = exp(logit − row max)
// (resized to fit; its storage is reused), the stats, and the rows with every
// entry blocked appended to `empty`. masked_softmax's weights are exactly
// exps with each row divided by row_divisors(stats).
SoftmaxStats softmax_row_exps(const Mat& scores, const Derivation& logits, Mat& exps, std::vector<int>& empty);
Eigen::ArrayXd row_divisors(const SoftmaxStats& stats);  // each row's sum, 1 where it is 0

class ScratchPool;
// The keys-axis softmax times v, without ever making the n×n exps whole:
// in blocks of kRowBlock rows (the exps of a block, their product with v,
// each row divided by its sum) on at most `max_threads` threads, with the
// block matrices lent by `scratch` (may be null). `out` = weights · v to
// rounding, the same bit for bit on any number of threads; the stats and
// `empty` are exactly softmax_row_exps's.
SoftmaxStats softmax_rows_times(const Mat& scores, const Derivation& logits, const Mat& v, Mat& out,
                                std::vector<int>& empty, ScratchPool* scratch, int max_threads);

// The dot-product scores q · kᵀ and the keys-axis softmax times v together,
// a block of kRowBlock rows at a time: each block of scores is made (the
// same bits as row_blocked_product(q, kᵀ)), copied into `scores` and used
// while still in cache. `largest` gets max |score| (NaN when one is NaN);
// everything else as softmax_rows_times.
SoftmaxStats scores_softmax_times(const Mat& q, const Mat& k, const Derivation& logits, const Mat& v, Mat& scores,
                                  double& largest, Mat& out, std::vector<int>& empty, ScratchPool* scratch,
                                  int max_threads);

// Recomputes the max and sum of row i of a keys-axis softmax with exactly
// the arithmetic masked_softmax uses for that row (same exp lanes, same order
// of summation), so a row updated alone derives the weights of a full
// recompute bit for bit. The row must have an entry that is not blocked.
void softmax_row_stats(const Mat& scores, const Derivation& logits, Eigen::Index i, double& max, double& sum);

// exp(x) exactly as the softmax computes it.
double exp_like_softmax(double x);

// The weights of a softmax derivation (d.softmax set), the whole matrix or
// one column into `out` (rows() values): every entry equals the one
// masked_softmax wrote, bit for bit.
Mat softmax_weights(const Mat& scores, const Derivation& d);
void softmax_weights_column(const Mat& scores, const Derivation& d, Eigen::Index c, double* out);
// Column c of a logits derivation (no softmax): source ÷ divisor + bias,
// blocked_value where masked, as StageValues reads each cell.
void logits_column_into(const Mat& scores, const Derivation& d, Eigen::Index c, double* out);

}  // namespace attn::detail
