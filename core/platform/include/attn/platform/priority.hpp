// A thread's scheduling priority, as a nice value (higher yields more). The
// background recompute runs below the window so frames stay smooth, and the
// core's waiting threads only take callers at their own priority.
#pragma once

namespace attn::platform {

// The calling thread's nice value (0 where threads have none).
int this_threads_nice();

// Lowers the calling thread to `nice` (Linux sets it per thread, and threads
// it starts inherit it). Raising it again needs privileges, so a lowered
// thread stays lowered. Nothing happens where threads have no priority.
void set_this_threads_nice(int nice);

}  // namespace attn::platform
