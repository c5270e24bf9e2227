// The SIGBUS guard for mapped weights files (mapping_guard.hpp).
#include "posix/mapping_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <mutex>

namespace attn::platform::detail {

namespace {

// Fixed slots of atomics: the handler may run at any moment, on any thread,
// so it takes no lock and allocates nothing. A slot's range is published
// under a sequence number (odd while it changes), so the handler never acts
// on a range torn between an old mapping and a new one.
struct Slot {
  std::atomic<unsigned> seq{0};
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<bool> damaged{false};
  std::atomic<bool> claimed{false};  // taken by a mapping
};
constexpr int kSlots = 256;
Slot g_slots[kSlots];
std::uintptr_t g_page = 4096;
struct sigaction g_previous {};

// The slot whose range held `at` for the whole look, or null.
Slot* slot_holding(std::uintptr_t at) {
  for (Slot& s : g_slots) {
    const unsigned before = s.seq.load(std::memory_order_acquire);
    if (before & 1) continue;
    const std::uintptr_t b = s.begin.load(std::memory_order_acquire), e = s.end.load(std::memory_order_acquire);
    if (s.seq.load(std::memory_order_acquire) != before) continue;
    if (at >= b && at < e) return &s;
  }
  return nullptr;
}

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  // Only a real fault on an address (not a `kill -BUS`) is ours to mend.
  if (info->si_code > 0) {
    if (Slot* s = slot_holding(reinterpret_cast<std::uintptr_t>(info->si_addr))) {
      void* page = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(info->si_addr) & ~(g_page - 1));
      // mmap is a plain system call here; the new page reads as zeros.
      if (::mmap(page, g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
        s->damaged.store(true);
        errno = saved_errno;
        return;  // the faulting read runs again, on the zero page
      }
    }
  }
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler != nullptr) {
    g_previous.sa_handler(sig);
  } else if (g_previous.sa_handler != SIG_IGN) {
    // Not ours: die as the signal would have killed us. A fault re-runs the
    // read under the default action; a sent signal is raised again.
    ::signal(SIGBUS, SIG_DFL);
    if (info->si_code <= 0) ::raise(SIGBUS);
  }
  errno = saved_errno;
}

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous);
  });
}

void publish(Slot& s, std::uintptr_t begin, std::uintptr_t end) {
  s.seq.fetch_add(1, std::memory_order_acq_rel);  // odd: changing
  s.begin.store(begin, std::memory_order_release);
  s.end.store(end, std::memory_order_release);
  s.seq.fetch_add(1, std::memory_order_acq_rel);  // even: settled
}

}  // namespace

int guard_mapping(const void* base, std::size_t size) {
  install();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    Slot& s = g_slots[i];
    if (!s.claimed.compare_exchange_strong(expected, true)) continue;
    s.damaged.store(false);
    publish(s, reinterpret_cast<std::uintptr_t>(base), reinterpret_cast<std::uintptr_t>(base) + size);
    return i;
  }
  return -1;
}

void unguard_mapping(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  Slot& s = g_slots[slot];
  publish(s, 0, 0);
  s.claimed.store(false);
}

bool mapping_damaged(int slot) { return slot >= 0 && slot < kSlots && g_slots[slot].damaged.load(); }

}  // namespace attn::platform::detail
