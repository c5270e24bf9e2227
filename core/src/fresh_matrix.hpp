// Internal: large result matrices (a head's n×n scores) backed by huge pages.
// A 2048-token head's scores are 33 MB of fresh memory, and faulting it in
// 4 KB pages took about a tenth of a full trace (a fault, a zeroed page and a
// lock per page). Asking the kernel for transparent huge pages on the new
// range, before anything touches it, takes one fault per 2 MB instead.
#pragma once

#include "attn/matrix.hpp"

namespace attn::detail {

// An uninitialised rows × cols matrix; large ones get huge pages where the
// system offers them (Linux's madvise mode), with no change to the values.
Mat fresh_matrix(Eigen::Index rows, Eigen::Index cols);

}  // namespace attn::detail
