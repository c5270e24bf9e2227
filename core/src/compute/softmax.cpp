// Stable softmax: subtracting the line maximum before exp keeps every
// exponent <= 0, so exp never overflows, and leaves the result unchanged
// because softmax is invariant to adding a constant to a whole line.
//
// Speed: Eigen is column-major, so the work runs down columns, which are
// contiguous. Over keys (each row sums to 1) a column holds one entry of
// every row: the row maxima and sums are vectors updated column by column.
// Three passes over the n×n data: maxima, exp and sums (written into the
// weights), and the division.
#include "compute/softmax.hpp"

#include "execution/fresh_matrix.hpp"
#include "execution/head_pool.hpp"
#include "execution/stream_copy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(ATTNVIZ_HAVE_LIBMVEC)
#include <immintrin.h>
#endif

namespace attn::detail {
namespace {

// Below this, an exp counts as 0: e^-708 is about the smallest normal
// double (2.2e-308), and Eigen's packet exp clamps its argument about here,
// so it would give a denormal for −1000, or for a blocked entry's −∞.
constexpr double kExpZeroBelow = -708.0;

// The softmax's exp, a packet of lanes at a time. Every exp of the trace
// goes through exp_into(), in whole packets (a short tail is padded), so a
// value is the same wherever it sits in a line, and softmax_exp() can redo
// any entry bit for bit. A blocked entry (−∞) weighs exactly 0, as does
// anything that would underflow: lanes below e^-708 compute exp(−708), a
// normal number, and are then zeroed (a causal row is half −∞, and exp's
// arithmetic on −∞ itself went through denormals, which the CPU handles
// slowly: a causal 2048-token weights pass took 38 ms instead of 26).
//
// On glibc/x86-64 the packet exp is glibc's vector maths library (libmvec,
// the functions the compiler itself calls for a vectorised std::exp): about
// 1 ns an exp on this machine against 2.4-2.9 ns for Eigen's, whose
// rational approximation divides once per packet, and at 64 tokens the exps
// were a quarter of a trace. Its error is under 4 ulp (glibc's bound; about
// 2.8 measured here); the tests hold the weights to the reference within
// 1e-12. Elsewhere, Eigen's packet exp.
#if defined(ATTNVIZ_HAVE_LIBMVEC) && defined(__AVX512F__)
// x86-64-v4 builds: libmvec's AVX-512 exp, eight lanes a call (a 2048-token
// trace's 50 million exps: 6.9% of its time with four lanes).
extern "C" __m512d _ZGVeN8v_exp(__m512d);  // libmvec, AVX-512: eight lanes
constexpr Eigen::Index kExpLanes = 8;
void exp_packet(const double* x, double* out) {
  const __m512d v = _mm512_loadu_pd(x), floor = _mm512_set1_pd(kExpZeroBelow);
  const __m512d e = _ZGVeN8v_exp(_mm512_max_pd(v, floor));
  _mm512_storeu_pd(out, _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(v, floor, _CMP_NLT_UQ), e));  // NaN stays NaN
}
#elif defined(ATTNVIZ_HAVE_LIBMVEC) && defined(__AVX2__)
extern "C" __m256d _ZGVdN4v_exp(__m256d);  // libmvec, AVX2: four lanes
constexpr Eigen::Index kExpLanes = 4;
void exp_packet(const double* x, double* out) {
  const __m256d v = _mm256_loadu_pd(x), floor = _mm256_set1_pd(kExpZeroBelow);
  const __m256d e = _ZGVdN4v_exp(_mm256_max_pd(v, floor));
  _mm256_storeu_pd(out, _mm256_andnot_pd(_mm256_cmp_pd(v, floor, _CMP_LT_OQ), e));
}
#elif defined(ATTNVIZ_HAVE_LIBMVEC)
extern "C" __m128d _ZGVbN2v_exp(__m128d);  // libmvec, SSE: two lanes
constexpr Eigen::Index kExpLanes = 2;
void exp_packet(const double* x, double* out) {
  const __m128d v = _mm_loadu_pd(x), floor = _mm_set1_pd(kExpZeroBelow);
  const __m128d e = _ZGVbN2v_exp(_mm_max_pd(v, floor));
  _mm_storeu_pd(out, _mm_andnot_pd(_mm_cmplt_pd(v, floor), e));
}
#else
constexpr Eigen::Index kExpLanes = 4;
void exp_packet(const double* x, double* out) {
  const Eigen::Array4d v = Eigen::Map<const Eigen::Array4d>(x);
  const Eigen::Array4d e = v.max(kExpZeroBelow).exp();  // on its own: inside select() Eigen 3.4 would not vectorise it
  Eigen::Map<Eigen::Array4d> lanes(out);
  lanes = (v < kExpZeroBelow).select(0.0, e);
}
#endif

void exp_into(const double* x, double* out, Eigen::Index n) {
  Eigen::Index i = 0;
  for (; i + kExpLanes <= n; i += kExpLanes) exp_packet(x + i, out + i);
  if (i < n) {
    double tail[kExpLanes], e[kExpLanes];
    for (Eigen::Index k = 0; k < kExpLanes; ++k) tail[k] = i + k < n ? x[i + k] : kMinusInf;
    exp_packet(tail, e);
    for (Eigen::Index k = i; k < n; ++k) out[k] = e[k - i];
  }
}

// True when 1 / d is exact (d is a power of two, such as √64 = 8, or 1):
// then x · (1 / d) is the same correctly rounded number as x / d, bit for
// bit, and a multiply costs a fraction of a divide on every cell.
bool exact_reciprocal(double d, double& reciprocal) {
  int exponent = 0;
  if (!std::isfinite(d) || std::frexp(d, &exponent) != 0.5) return false;
  reciprocal = 1.0 / d;
  return std::isnormal(reciprocal);
}

// Where scores are read: row r of the scores is row r - first of `m` (all
// of them, or one block of rows just computed and still in cache).
struct ScoreRows {
  ScoreRows(const Mat& scores, Eigen::Index first_row = 0) : m(scores), first(first_row) {}  // NOLINT: a whole matrix reads as itself
  const Mat& m;
  Eigen::Index first;
};

// Rows [r0, r0 + rows) of column c of the logits (masked), into `out`.
// Whole-segment steps, each the same IEEE operation per cell as a cell
// read; the mask is a select, not a branch per cell (a causal column is half
// blocked, half not).
void logits_segment(const ScoreRows& scores, const Derivation& d, Eigen::Index c, Eigen::Index r0, Eigen::Index rows,
                    double* out) {
  Eigen::Map<Eigen::ArrayXd> col(out, rows);
  const auto source = scores.m.col(c).segment(r0 - scores.first, rows).array();
  double reciprocal = 0;
  if (exact_reciprocal(d.divisor, reciprocal)) col = source * reciprocal;
  else col = source / d.divisor;
  if (d.cap > 0)
    for (Eigen::Index r = 0; r < rows; ++r) out[r] = soft_capped(out[r], d.cap);
  if (d.bias) col += d.bias->col(c).segment(r0, rows).array();
  if (d.mask.size()) {
    // Read as bytes in a plain loop, which the compiler turns into vector
    // blends; Eigen's select() on a bool array runs one cell at a time.
    const auto* blocked = reinterpret_cast<const unsigned char*>(d.mask.data() + c * d.mask.rows() + r0);
    const double value = d.blocked_value;
    for (Eigen::Index r = 0; r < rows; ++r) out[r] = blocked[r] != 0 ? value : out[r];
  }
}

void logits_column(const Mat& scores, const Derivation& d, Eigen::Index c, double* out) {
  logits_segment(scores, d, c, 0, scores.rows(), out);
}

// How many of rows [r0, r0 + rows) of column c, from the first, the mask
// blocks with −∞ (0 without a mask, or when blocked cells are not −∞).
Eigen::Index leading_blocked(const Derivation& d, Eigen::Index c, Eigen::Index r0, Eigen::Index rows) {
  if (!d.mask.size() || d.blocked_value != kMinusInf) return 0;
  // Read as bytes (a bool is one), which std::find scans a word at a time.
  const auto* blocked = reinterpret_cast<const unsigned char*>(d.mask.data() + c * d.mask.rows() + r0);
  return std::find(blocked, blocked + rows, 0) - blocked;
}

// Rows [r0, r0 + rows) of the keys-axis softmax before its division: exps
// (rows × keys) and each row's max and sum. Every row's arithmetic is the
// same whatever block it is in: its own max, exp lanes and summation order.
// Only the first `cols` columns are computed (exps keeps its full width):
// the caller has found every later one blocked in these rows, where a logit
// is −∞, which changes no max, and its exp is 0, which adds nothing to a sum.
SoftmaxStats block_exps(const ScoreRows& scores, const Derivation& d, Eigen::Index r0, Eigen::Index rows, Eigen::Index cols,
                        Mat& exps, std::vector<int>& empty) {
  exps.resize(rows, scores.m.cols());
  Eigen::ArrayXd mx = Eigen::ArrayXd::Constant(rows, kMinusInf), shifted(rows);
  double* const top = mx.data();
  // Each column's leading rows that the mask blocks (under a causal mask,
  // the rows above the diagonal: half of every column at 64 tokens) are −∞
  // logits and 0 exps without reading the scores or computing an exp: −∞
  // changes no max, and 0 adds nothing to a sum, so the stats are the same.
  // The loops are plain ones over a column: at 64 tokens a column is short,
  // and Eigen's segment expressions cost more than the arithmetic.
  std::vector<Eigen::Index> lead(static_cast<size_t>(cols));
  // The first pass keeps the logits in `exps`, so the second reads them back
  // instead of dividing and masking the scores again.
  for (Eigen::Index c = 0; c < cols; ++c) {
    const Eigen::Index skip = leading_blocked(d, c, r0, rows);
    lead[static_cast<size_t>(c)] = skip;
    double* e = &exps(0, c);
    std::fill(e, e + skip, kMinusInf);
    logits_segment(scores, d, c, r0 + skip, rows - skip, e + skip);
    for (Eigen::Index r = skip; r < rows; ++r) top[r] = std::max(top[r], e[r]);
  }
  for (Eigen::Index i = 0; i < rows; ++i)
    if (mx(i) == kMinusInf) {
      empty.push_back(static_cast<int>(r0 + i));  // nothing to attend to: weights stay 0
      mx(i) = 0;
    }
  Eigen::ArrayXd sum = Eigen::ArrayXd::Zero(rows);
  double* const total = sum.data();
  double* const x = shifted.data();
  for (Eigen::Index c = 0; c < cols; ++c) {
    const Eigen::Index skip = lead[static_cast<size_t>(c)];
    double* e = &exps(0, c);
    std::fill(e, e + skip, 0.0);
    for (Eigen::Index r = skip; r < rows; ++r) x[r] = e[r] - top[r];
    exp_into(x + skip, e + skip, rows - skip);
    for (Eigen::Index r = skip; r < rows; ++r) total[r] += e[r];
  }
  return {mx.matrix(), sum.matrix()};
}

// How many leading columns of rows [r0, r0 + rows) hold an entry the mask
// leaves open: past the last such column every logit is −∞. Under a causal
// mask a block of rows sees only the keys up to its last row, so the exps and
// their product with V skip the blocked corner (at 2048 tokens, 44% of both).
Eigen::Index open_columns(const Derivation& d, Eigen::Index r0, Eigen::Index rows, Eigen::Index cols) {
  if (!d.mask.size() || d.blocked_value != kMinusInf) return cols;
  const Eigen::Index stride = d.mask.rows();
  while (cols > 0) {
    const bool* blocked = d.mask.data() + (cols - 1) * stride + r0;
    if (!std::all_of(blocked, blocked + rows, [](bool b) { return b; })) break;
    --cols;
  }
  return cols;
}

}  // namespace

SoftmaxStats softmax_row_exps(const Mat& scores, const Derivation& d, Mat& exps, std::vector<int>& empty) {
  return block_exps(scores, d, 0, scores.rows(), scores.cols(), exps, empty);
}

namespace {

// Rows [r0, r0 + rows) of the keys-axis softmax times v, into the same rows
// of `out` and `stats`: the block's exps (with a matrix lent by `scratch`),
// their product with v, each row divided by its sum.
void softmax_block_times(const ScoreRows& scores, const Derivation& d, const Mat& v, Eigen::Index r0, Eigen::Index rows,
                         Mat& out, SoftmaxStats& stats, std::vector<int>& empty, ScratchPool* scratch) {
  Mat exps = scratch ? scratch->take() : Mat();
  const Eigen::Index cols = open_columns(d, r0, rows, scores.m.cols());
  const SoftmaxStats st = block_exps(scores, d, r0, rows, cols, exps, empty);
  stats.max.segment(r0, rows) = st.max;
  stats.sum.segment(r0, rows) = st.sum;
  // The blocked columns' exps are 0: leaving them out of the sum of
  // products changes each output by rounding at most (~1e-16).
  if (cols == 0) out.middleRows(r0, rows).setZero();
  else out.middleRows(r0, rows).noalias() = exps.leftCols(cols) * v.topRows(cols);
  out.middleRows(r0, rows).array().colwise() /= row_divisors(st);
  if (scratch) scratch->give(std::move(exps));
}

}  // namespace

SoftmaxStats softmax_rows_times(const Mat& scores, const Derivation& d, const Mat& v, Mat& out,
                                std::vector<int>& empty, ScratchPool* scratch, int max_threads) {
  const Eigen::Index n = scores.rows();
  const int blocks = static_cast<int>((n + kRowBlock - 1) / kRowBlock);
  SoftmaxStats stats{Vec(n), Vec(n)};
  out = fresh_matrix(n, v.cols());  // every row is written below
  std::vector<std::vector<int>> empties(static_cast<size_t>(blocks));
  const double work = static_cast<double>(kRowBlock) * static_cast<double>(scores.cols()) * static_cast<double>(v.cols());
  for_each_item(blocks, thread_count(work, blocks, max_threads), work, [&](int b) {
    const Eigen::Index r0 = b * kRowBlock, rows = std::min(kRowBlock, n - r0);
    softmax_block_times(scores, d, v, r0, rows, out, stats, empties[static_cast<size_t>(b)], scratch);
  });
  for (const std::vector<int>& e : empties) empty.insert(empty.end(), e.begin(), e.end());  // in row order
  return stats;
}

SoftmaxStats scores_softmax_times(const Mat& q, const Mat& k, const Derivation& d, const Mat& v, Mat& scores,
                                  double& largest, Mat& out, std::vector<int>& empty, ScratchPool* scratch,
                                  int max_threads) {
  const Eigen::Index n = q.rows();
  const int blocks = static_cast<int>((n + kRowBlock - 1) / kRowBlock);
  SoftmaxStats stats{Vec(n), Vec(n)};
  scores = fresh_matrix(n, k.rows());  // every row block is written below
  out = fresh_matrix(n, v.cols());
  std::vector<std::vector<int>> empties(static_cast<size_t>(blocks));
  std::vector<double> largest_of(static_cast<size_t>(blocks), 0.0);
  const double work = static_cast<double>(kRowBlock) * static_cast<double>(k.rows()) *
                      static_cast<double>(q.cols() + v.cols());
  for_each_item(blocks, thread_count(work, blocks, max_threads), work, [&](int b) {
    const Eigen::Index r0 = b * kRowBlock, rows = std::min(kRowBlock, n - r0);
    // The block of scores is made in a lent matrix, by the very product
    // row_blocked_product makes for these rows (the same shapes, so the same
    // bits), copied into the stage past the cache (stream_copy.hpp), and
    // read from the lent one while it is in cache: the n×n scores go to
    // memory once instead of five times.
    Mat block = scratch ? scratch->take() : Mat();
    block.resize(rows, k.rows());
    block.noalias() = q.middleRows(r0, rows) * k.transpose();
    largest_of[static_cast<size_t>(b)] = copy_rows_streaming(block, scores, r0);
    softmax_block_times(ScoreRows(block, r0), d, v, r0, rows, out, stats, empties[static_cast<size_t>(b)], scratch);
    if (scratch) scratch->give(std::move(block));
  });
  largest = 0;
  for (double x : largest_of)
    if (std::isnan(x) || std::isnan(largest)) largest = std::nan("");
    else largest = std::max(largest, x);
  for (const std::vector<int>& e : empties) empty.insert(empty.end(), e.begin(), e.end());  // in row order
  return stats;
}

Eigen::ArrayXd row_divisors(const SoftmaxStats& stats) {
  // An all-blocked row has sum 0: dividing would give 0/0, keep the zeros.
  return (stats.sum.array() == 0).select(1.0, stats.sum.array());
}

namespace {

SoftmaxResult softmax_rows(const Mat& scores, const Derivation& d) {
  SoftmaxResult r;
  r.stats = softmax_row_exps(scores, d, r.weights, r.empty);
  r.weights.array().colwise() /= row_divisors(r.stats);
  return r;
}

SoftmaxResult softmax_columns(const Mat& scores, const Derivation& d) {
  const Eigen::Index n = scores.rows(), m = scores.cols();
  SoftmaxResult r;
  r.weights.resize(n, m);
  r.stats.max = Vec::Zero(m);
  r.stats.sum = Vec::Zero(m);
  Eigen::ArrayXd col(n);
  for (Eigen::Index c = 0; c < m; ++c) {
    logits_column(scores, d, c, col.data());
    const double mx = col.maxCoeff();
    if (mx == kMinusInf) {
      r.empty.push_back(static_cast<int>(c));
      r.weights.col(c).setZero();
      continue;
    }
    col -= mx;
    exp_into(col.data(), &r.weights(0, c), n);
    const double sum = r.weights.col(c).sum();
    r.weights.col(c) /= sum;
    r.stats.max(c) = mx;
    r.stats.sum(c) = sum;  // >= 1: the maximum contributes exp(0)
  }
  return r;
}

}  // namespace

void softmax_row_stats(const Mat& scores, const Derivation& d, Eigen::Index i, double& max, double& sum) {
  const Eigen::Index m = scores.cols();
  Eigen::ArrayXd shifted(m), e(m);
  double mx = kMinusInf;
  for (Eigen::Index c = 0; c < m; ++c) {
    double v = soft_capped(scores(i, c) / d.divisor, d.cap);
    if (d.bias) v += (*d.bias)(i, c);
    if (d.mask.size() && d.mask(i, c)) v = d.blocked_value;
    shifted(c) = v;
    mx = std::max(mx, v);
  }
  shifted -= mx;
  exp_into(shifted.data(), e.data(), m);
  double s = 0;
  for (Eigen::Index c = 0; c < m; ++c) s += e(c);  // left to right, as the column passes add
  max = mx;
  sum = s;
}

double exp_like_softmax(double x) {
  double out = 0;
  exp_into(&x, &out, 1);
  return out;
}

void logits_column_into(const Mat& scores, const Derivation& d, Eigen::Index c, double* out) {
  logits_column(scores, d, c, out);
}

void softmax_weights_column(const Mat& scores, const Derivation& d, Eigen::Index c, double* out) {
  const Eigen::Index n = scores.rows();
  const SoftmaxStats& st = *d.softmax;
  Eigen::ArrayXd col(n);
  logits_column(scores, d, c, col.data());
  Eigen::Map<Eigen::ArrayXd> w(out, n);
  // Row lines: the same column passes as softmax_rows (shift, exp, divide).
  if (d.softmax_over_rows) {
    col -= st.max.array();
    exp_into(col.data(), out, n);
    w /= row_divisors(st);
  } else {
    col -= st.max(c);
    exp_into(col.data(), out, n);
    w /= st.sum(c) == 0 ? 1.0 : st.sum(c);
  }
}

Mat softmax_weights(const Mat& scores, const Derivation& d) {
  Mat w(scores.rows(), scores.cols());
  for (Eigen::Index c = 0; c < w.cols(); ++c) softmax_weights_column(scores, d, c, &w(0, c));
  return w;
}

SoftmaxResult masked_softmax(const Mat& scores, const Derivation& logits, SoftmaxAxis axis) {
  return axis == SoftmaxAxis::Keys ? softmax_rows(scores, logits) : softmax_columns(scores, logits);
}

}  // namespace attn::detail
