// Internal: the whole pages inside a byte range. madvise acts on whole
// pages, and a range's first and last partial pages belong to neighbours.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::platform::detail {

// The whole `page`-sized pages inside [begin, begin + bytes), as [first, last).
inline void whole_pages(const void* begin, std::size_t bytes, std::uintptr_t page, std::uintptr_t& first,
                        std::uintptr_t& last) {
  const auto from = reinterpret_cast<std::uintptr_t>(begin);
  first = (from + page - 1) / page * page;
  last = (from + bytes) / page * page;
}

}  // namespace attn::platform::detail
