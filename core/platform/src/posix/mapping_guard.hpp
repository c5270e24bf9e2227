// A mapped file that another program truncates while it is open makes any
// read past the new end raise SIGBUS, which killed the app (the file had been
// rewritten with `cp` and the text then edited). The guard catches a SIGBUS
// inside a registered mapping, maps a page of zeros over the missing one so
// the read finishes, and marks the mapping damaged; whoever read it checks
// the mark after the pass and refuses the result. A SIGBUS anywhere else is
// left to the handler before ours, or kills the process as usual.
// (Internal to attn_platform: MappedFile guards every mapping it makes.)
#pragma once

#include <cstddef>

namespace attn::platform::detail {

// A slot for the range, or -1 when every slot is taken (the range then
// stays unguarded, as before). Thread-safe.
int guard_mapping(const void* base, std::size_t size);
void unguard_mapping(int slot);
bool mapping_damaged(int slot);

}  // namespace attn::platform::detail
