// glibc's malloc settings for a process that computes traces
// (warm_heap.hpp). Setting either threshold by hand turns off glibc's
// adaptive one, so both are set: the trim threshold alone left the map
// threshold at 128 KB and made a 512-token trace twice as slow.
#include "execution/warm_heap.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attn::detail {

void keep_heap_warm() {
#if defined(__GLIBC__)
  constexpr int kKeep = 32 << 20;
  static const bool done = [] {
    mallopt(M_MMAP_THRESHOLD, kKeep);
    mallopt(M_TRIM_THRESHOLD, kKeep);
    return true;
  }();
  (void)done;
#endif
}

}  // namespace attn::detail
