// Transparent huge pages for large allocations: a 2048-token trace's
// matrices take tens of megabytes, and 2 MB pages cut the page faults and
// TLB misses of filling them. Only a hint.
#pragma once

#include <cstddef>

namespace attn::platform {

// Asks for huge pages over the whole 2 MB pages inside [data, data + bytes);
// nothing where the system has none or refuses.
void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace attn::platform
