// Transparent huge pages for large fresh matrices (see fresh_matrix.hpp).
// Only a hint: where it is refused (another OS, THP off) the pages are
// ordinary ones, and the matrix is the same either way.
#include "execution/fresh_matrix.hpp"

#include "execution/recycled_storage.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace attn::detail {

namespace {
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
// Below a few huge pages the saving is small and the rounding wastes more.
constexpr std::size_t kHugeFrom = std::size_t{8} << 20;
}  // namespace

Mat fresh_matrix(Eigen::Index rows, Eigen::Index cols) {
  Mat m;
  // Storage a freed trace left, already faulted in (huge pages included).
  if (take_recycled(m, rows, cols)) return m;
  m.resize(rows, cols);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const std::size_t bytes = static_cast<std::size_t>(m.size()) * sizeof(double);
  if (bytes >= kHugeFrom) {
    // Only the whole huge pages inside the allocation: the rest of its
    // first and last 2 MB may belong to other allocations.
    const auto begin = reinterpret_cast<std::uintptr_t>(m.data());
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
  return m;
}

Mat copy_of(const Mat& m) {
  Mat out = fresh_matrix(m.rows(), m.cols());
  out = m;  // the same size: into the storage it has
  return out;
}

}  // namespace attn::detail
