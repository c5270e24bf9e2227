// Internal: copying a block of scores into the n×n stage that keeps them,
// past the cache. A 2048-token trace writes 400 MB of scores that nothing
// reads again while it runs; ordinary stores first read every destination
// line into the cache (to own it) and then push out lines the next block
// needs. Streaming stores write memory directly: the copy of 12 heads'
// scores took 51-58 ms with ordinary stores and 15 ms with streaming ones on
// one core of the development machine (AVX-512). Only x86-64 streams; other
// CPUs copy plainly, with the same result.
#pragma once

#include "attn/base/matrix.hpp"

namespace attn::detail {

// dst.middleRows(r0, block.rows()) = block, returning the largest |value| of
// block (NaN when any value is NaN; 0 for an empty block). The copy is exact;
// only the way it reaches memory differs. Nothing may read those rows of dst
// from another thread before this returns (the stores are fenced here).
double copy_rows_streaming(const Mat& block, Mat& dst, Eigen::Index r0);

}  // namespace attn::detail
