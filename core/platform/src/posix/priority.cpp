// POSIX thread priorities (attn/platform/priority.hpp). Linux keeps a nice
// value per thread, reached through the thread's id; elsewhere setpriority
// would change the whole process, so nothing happens there.
#include "attn/platform/priority.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace attn::platform {

int this_threads_nice() {
#if defined(__linux__)
  return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
#else
  return 0;
#endif
}

void set_this_threads_nice(int nice) {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice);
#else
  (void)nice;
#endif
}

}  // namespace attn::platform
