// The name a thread shows in /proc, top -H and debuggers. The app names its
// own threads ("attn-job", "attn-work") so they can be told from Mesa's
// llvmpipe threads and GLFW's, and counted (the idle thread test).
#pragma once

namespace attn::platform {

// Names the calling thread; at most 15 characters are kept (Linux's limit).
// Nothing happens where threads have no names.
void name_this_thread(const char* name);

}  // namespace attn::platform
