// Streaming copy of a block of rows (stream_copy.hpp). Each column of the
// block is one contiguous run of the destination's column: a few leading
// entries are copied plainly until the destination is aligned for a whole
// vector, then whole vectors are streamed, then the tail is copied plainly.
// Every x86-64 has SSE2's two-lane streaming store; v3 builds use AVX's four
// lanes and v4 builds AVX-512's eight. Other CPUs copy plainly.
#include "execution/stream_copy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
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

// One register of lanes: load, stream, and the running |max| and NaN flag.
#if defined(__AVX512F__)
struct Lanes {
  static constexpr Eigen::Index kCount = 8;
  __m512d top = _mm512_setzero_pd();
  __mmask8 nan = 0;
  void stream(const double* src, double* out) {
    const __m512d v = _mm512_loadu_pd(src);
    _mm512_stream_pd(out, v);
    const __m512d a = _mm512_abs_pd(v);
    nan = static_cast<__mmask8>(nan | _mm512_cmp_pd_mask(a, a, _CMP_UNORD_Q));
    top = _mm512_max_pd(top, a);
  }
  void into(Largest& largest) const {
    if (nan) largest.nan = true;
    largest.abs = std::max(largest.abs, _mm512_reduce_max_pd(top));
  }
};
#elif defined(__AVX__)
struct Lanes {
  static constexpr Eigen::Index kCount = 4;
  __m256d top = _mm256_setzero_pd(), nan = _mm256_setzero_pd();
  void stream(const double* src, double* out) {
    const __m256d v = _mm256_loadu_pd(src);
    _mm256_stream_pd(out, v);
    const __m256d a = _mm256_andnot_pd(_mm256_set1_pd(-0.0), v);
    nan = _mm256_or_pd(nan, _mm256_cmp_pd(a, a, _CMP_UNORD_Q));
    top = _mm256_max_pd(top, a);
  }
  void into(Largest& largest) const {
    if (_mm256_movemask_pd(nan)) largest.nan = true;
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, top);
    for (double x : lanes) largest.abs = std::max(largest.abs, x);
  }
};
#elif defined(__SSE2__)
struct Lanes {
  static constexpr Eigen::Index kCount = 2;
  __m128d top = _mm_setzero_pd(), nan = _mm_setzero_pd();
  void stream(const double* src, double* out) {
    const __m128d v = _mm_loadu_pd(src);
    _mm_stream_pd(out, v);
    const __m128d a = _mm_andnot_pd(_mm_set1_pd(-0.0), v);
    nan = _mm_or_pd(nan, _mm_cmpunord_pd(a, a));
    top = _mm_max_pd(top, a);
  }
  void into(Largest& largest) const {
    if (_mm_movemask_pd(nan)) largest.nan = true;
    alignas(16) double lanes[2];
    _mm_store_pd(lanes, top);
    for (double x : lanes) largest.abs = std::max(largest.abs, x);
  }
};
#endif

}  // namespace

double copy_rows_streaming(const Mat& block, Mat& dst, Eigen::Index r0) {
  eigen_assert(block.cols() == dst.cols() && r0 >= 0 && r0 + block.rows() <= dst.rows());
  const Eigen::Index rows = block.rows();
  Largest largest;
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
  Lanes lanes;
  constexpr std::uintptr_t kAlign = Lanes::kCount * sizeof(double);
#endif
  for (Eigen::Index c = 0; c < block.cols(); ++c) {
    const double* src = &block.coeffRef(0, c);
    double* out = &dst.coeffRef(r0, c);
    Eigen::Index i = 0;
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
    for (; i < rows && reinterpret_cast<std::uintptr_t>(out + i) % kAlign != 0; ++i) {
      out[i] = src[i];
      largest.see(src[i]);
    }
    for (; i + Lanes::kCount <= rows; i += Lanes::kCount) lanes.stream(src + i, out + i);
#endif
    for (; i < rows; ++i) {
      out[i] = src[i];
      largest.see(src[i]);
    }
  }
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
  _mm_sfence();  // streamed stores are weakly ordered: done before anyone reads them
  lanes.into(largest);
#endif
  return largest.nan ? std::nan("") : largest.abs;
}

}  // namespace attn::detail
