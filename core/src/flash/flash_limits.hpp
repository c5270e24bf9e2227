// The refusals of compute_flash, apart from its loop: a head the trace
// lacks, block sizes, the tile and number caps, and the options whose softmax
// is not a row-wise softmax of Q·Kᵀ. Throws std::invalid_argument.
#pragma once

#include "attn/flash/flash.hpp"

namespace attn {

void check_flash_options(const Trace& trace, const FlashOptions& opts);

}  // namespace attn
