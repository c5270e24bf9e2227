// Internal: the storage of large matrices a trace lets go of, kept for the
// next fresh_matrix of the same size. A 2048-token head's scores are 33 MB;
// freed, they went back to the system, and the next trace's were new pages
// the kernel zeroed and faulted in again (clear_page was 17% of a trace's
// time in one profile). Kept, they are written over as they are: a trace
// after a trace (an edit of X, a benchmark loop) takes its predecessor's.
//
// Storage waits here at most 1 GB in all (the oldest goes first), and is
// freed by release_recycled_storage() (the app: when it has nothing to
// compute) or once it has waited 2 seconds, at the next give or take.
#pragma once

#include <cstddef>
#include <memory>

#include "attn/base/matrix.hpp"

namespace attn::detail {

// Matrices of at least this many bytes are recycled: a 2048-token head's
// Q, K, V and output (1 MB each) as well as its scores.
constexpr std::size_t kRecycleFrom = std::size_t{1} << 20;

// `m` shared read-only; when the last holder lets go of a large one, its
// storage waits for the next take_recycled of the same size.
std::shared_ptr<const Mat> share_recycled(Mat m);

// A rows × cols matrix on waiting storage (its old values, to be written
// over), or false when none of that size waits.
bool take_recycled(Mat& out, Eigen::Index rows, Eigen::Index cols);

// Bytes waiting now, and (tests) other limits than 1 GB and 2 seconds.
std::size_t recycled_bytes();
void set_recycle_limits(std::size_t max_bytes, double max_seconds);

}  // namespace attn::detail
