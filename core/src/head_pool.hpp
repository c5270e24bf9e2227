// Internal: runs f(h) for every head, on the machine's cores when the heads
// are big enough to be worth a thread (a 16-token scene is faster on one).
#pragma once

#include <functional>

#include "attn/scenario.hpp"

namespace attn::detail {

void for_each_head(const Dims& d, const std::function<void(int)>& f);

}  // namespace attn::detail
