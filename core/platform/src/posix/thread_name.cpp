// POSIX thread names (attn/platform/thread_name.hpp): pthread_setname_np,
// which Linux and the BSDs take with the thread, macOS without it.
#include "attn/platform/thread_name.hpp"

#include <pthread.h>

#include <string>

namespace attn::platform {

void name_this_thread(const char* name) {
  const std::string kept = std::string(name).substr(0, 15);  // Linux refuses longer names
#if defined(__APPLE__)
  pthread_setname_np(kept.c_str());
#elif defined(__linux__) || defined(__FreeBSD__)
  pthread_setname_np(pthread_self(), kept.c_str());
#else
  (void)kept;
#endif
}

}  // namespace attn::platform
