// Internal: large result matrices (a head's n×n scores) backed by huge pages.
// A 2048-token head's scores are 33 MB of fresh memory, and faulting it in
// 4 KB pages took about a tenth of a full trace (a fault, a zeroed page and a
// lock per page). Asking the kernel for transparent huge pages on the new
// range, before anything touches it, takes one fault per 2 MB instead.
#pragma once

#include "attn/base/matrix.hpp"

namespace attn::detail {

// An uninitialised rows × cols matrix (every entry must be written): the
// storage of a freed large matrix of that size when one waits
// (recycled_storage.hpp), else new storage, with huge pages where the system
// offers them (Linux's madvise mode) when it is large.
Mat fresh_matrix(Eigen::Index rows, Eigen::Index cols);

// A copy of `m` on fresh_matrix storage (a trace's copies of its inputs).
Mat copy_of(const Mat& m);

}  // namespace attn::detail
