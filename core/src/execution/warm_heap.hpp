// Internal: keeps the memory that products free for the next ones to use.
//
// Every large product of a trace asks the allocator for blocks of a
// megabyte or so (Eigen's packed panels, a row block's exps, a head's Q, K
// and V) and gives them back at once. glibc hands such blocks back to the
// system as soon as they are freed (it maps anything over its adaptive
// threshold, and trims the heap's free top past twice that), so the next
// product faults the same pages in again, each one zeroed by the kernel:
// page faults and unmapping were a tenth of a 512-token trace's time
// (perf, this project's 2-core machine).
#pragma once

namespace attn::detail {

// Once per process, on glibc: blocks under 32 MB come from the heap, and up
// to 32 MB of free heap top is kept rather than trimmed. Larger matrices (a
// 2048-token head's scores) are still mapped, and recycled_storage.hpp keeps
// those. Elsewhere, nothing.
void keep_heap_warm();

}  // namespace attn::detail
