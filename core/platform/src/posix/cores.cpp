// Cores and thread placement on Linux (attn/platform/cores.hpp):
// sched_getcpu, sched_getaffinity and pthread_setaffinity_np; elsewhere
// nothing is known and nothing moves.
#include "attn/platform/cores.hpp"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace attn::platform {

int this_core() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

#if defined(__linux__)
namespace {
// The process's mask: its first thread's, which a caller cannot have pinned.
cpu_set_t process_cores() {
  cpu_set_t cores;
  CPU_ZERO(&cores);
  if (sched_getaffinity(getpid(), sizeof cores, &cores) != 0) CPU_ZERO(&cores);
  return cores;
}
}  // namespace
#endif

int affinity_cores() {
#if defined(__linux__)
  const cpu_set_t cores = process_cores();
  return CPU_COUNT(&cores);
#else
  return 0;
#endif
}

void move_this_thread_off(int core) {
#if defined(__linux__)
  if (core < 0 || core >= CPU_SETSIZE) return;
  cpu_set_t allowed = process_cores();
  CPU_CLR(core, &allowed);
  if (CPU_COUNT(&allowed) > 0) pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
#else
  (void)core;
#endif
}

}  // namespace attn::platform
