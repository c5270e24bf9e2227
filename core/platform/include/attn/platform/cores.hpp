// The processor cores a thread runs on and may run on: the core's compute
// threads move off their caller's core, and the thread counts start from
// the cores the process may use (taskset, a container's cpuset).
#pragma once

namespace attn::platform {

// The core the calling thread runs on now; -1 where unknown.
int this_core();

// How many cores the process's affinity mask allows (its main thread's, as
// taskset set it, not the calling thread's); 0 where unknown.
int affinity_cores();

// Moves the calling thread off `core`, to the process's other cores. Left
// to the scheduler, a woken thread was often put on its waker's core and
// kept there while it spun between jobs: the two then took turns on one
// core for as long as jobs kept coming. Nothing where threads cannot be
// placed, or when `core` is the only one.
void move_this_thread_off(int core);

}  // namespace attn::platform
