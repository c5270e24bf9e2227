// Huge pages on Linux (attn/platform/huge_pages.hpp): madvise(MADV_HUGEPAGE).
#include "attn/platform/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

#include "posix/whole_pages.hpp"

namespace attn::platform {

void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(MADV_HUGEPAGE)
  std::uintptr_t first = 0, last = 0;
  // Only the whole huge pages inside the allocation: the rest of its first
  // and last 2 MB may belong to other allocations.
  detail::whole_pages(data, bytes, std::uintptr_t{2} << 20, first, last);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace attn::platform
