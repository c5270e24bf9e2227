// Streaming copy of a block of rows (stream_copy.hpp). Each column of the
// block is one contiguous run of the destination's column: a few leading
// entries are copied plainly until the destination is aligned for a whole
// vector, then whole vectors are streamed, then the tail is copied plainly.
#include "execution/stream_copy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__AVX512F__) || defined(__AVX__)
#include <immintrin.h>
#endif

namespace attn::detail {

namespace {

// The largest |x| so far, and whether a NaN was seen (std::max drops NaNs).
struct Largest {
  double abs = 0;
  bool nan = false;
  void see(double x) {
    const double a = std::abs(x);
    if (std::isnan(a)) nan = true;
    else abs = std::max(abs, a);
  }
};

#if defined(__AVX512F__)
constexpr Eigen::Index kLanes = 8;
#elif defined(__AVX__)
constexpr Eigen::Index kLanes = 4;
#else
constexpr Eigen::Index kLanes = 1;
#endif
constexpr std::uintptr_t kAlign = kLanes * sizeof(double);

// Copies n entries from src to dst; returns how many leading ones were copied
// plainly into `largest` (the rest are the caller's vectors).
Eigen::Index plain_until_aligned(const double* src, double* dst, Eigen::Index n, Largest& largest) {
  Eigen::Index i = 0;
  for (; i < n && reinterpret_cast<std::uintptr_t>(dst + i) % kAlign != 0; ++i) {
    dst[i] = src[i];
    largest.see(src[i]);
  }
  return i;
}

}  // namespace

double copy_rows_streaming(const Mat& block, Mat& dst, Eigen::Index r0) {
  const Eigen::Index rows = block.rows();
  Largest largest;
#if defined(__AVX512F__)
  const __m512d sign = _mm512_set1_pd(-0.0);
  __m512d top = _mm512_setzero_pd();
  __mmask8 nan = 0;
#elif defined(__AVX__)
  const __m256d sign = _mm256_set1_pd(-0.0);
  __m256d top = _mm256_setzero_pd(), nan = _mm256_setzero_pd();
#endif
  for (Eigen::Index c = 0; c < block.cols(); ++c) {
    const double* src = &block.coeffRef(0, c);
    double* out = &dst.coeffRef(r0, c);
    Eigen::Index i = kLanes > 1 ? plain_until_aligned(src, out, rows, largest) : 0;
#if defined(__AVX512F__)
    for (; i + kLanes <= rows; i += kLanes) {
      const __m512d v = _mm512_loadu_pd(src + i);
      _mm512_stream_pd(out + i, v);
      const __m512d a = _mm512_andnot_pd(sign, v);
      nan |= _mm512_cmp_pd_mask(a, a, _CMP_UNORD_Q);
      top = _mm512_max_pd(top, a);
    }
#elif defined(__AVX__)
    for (; i + kLanes <= rows; i += kLanes) {
      const __m256d v = _mm256_loadu_pd(src + i);
      _mm256_stream_pd(out + i, v);
      const __m256d a = _mm256_andnot_pd(sign, v);
      nan = _mm256_or_pd(nan, _mm256_cmp_pd(a, a, _CMP_UNORD_Q));
      top = _mm256_max_pd(top, a);
    }
#endif
    for (; i < rows; ++i) {
      out[i] = src[i];
      largest.see(src[i]);
    }
  }
#if defined(__AVX512F__)
  _mm_sfence();  // streamed stores are weakly ordered: done before anyone reads them
  if (nan) largest.nan = true;
  largest.abs = std::max(largest.abs, _mm512_reduce_max_pd(top));
#elif defined(__AVX__)
  _mm_sfence();
  if (_mm256_movemask_pd(nan)) largest.nan = true;
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, top);
  for (double x : lanes) largest.abs = std::max(largest.abs, x);
#endif
  return largest.nan ? std::nan("") : largest.abs;
}

}  // namespace attn::detail
