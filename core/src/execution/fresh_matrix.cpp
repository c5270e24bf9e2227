// Transparent huge pages for large fresh matrices (see fresh_matrix.hpp).
// Only a hint: where it is refused (another OS, THP off) the pages are
// ordinary ones, and the matrix is the same either way.
#include "execution/fresh_matrix.hpp"

#include "execution/recycled_storage.hpp"

#include "attn/platform/huge_pages.hpp"

namespace attn::detail {

namespace {
// Below a few huge pages the saving is small and the rounding wastes more.
constexpr std::size_t kHugeFrom = std::size_t{8} << 20;
}  // namespace

Mat fresh_matrix(Eigen::Index rows, Eigen::Index cols) {
  Mat m;
  // Storage a freed trace left, already faulted in (huge pages included).
  if (take_recycled(m, rows, cols)) return m;
  m.resize(rows, cols);
  const std::size_t bytes = static_cast<std::size_t>(m.size()) * sizeof(double);
  if (bytes >= kHugeFrom) platform::advise_huge_pages(m.data(), bytes);
  return m;
}

Mat copy_of(const Mat& m) {
  Mat out = fresh_matrix(m.rows(), m.cols());
  out = m;  // the same size: into the storage it has
  return out;
}

}  // namespace attn::detail
