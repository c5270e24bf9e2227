#include "safetensors/mapping_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace attn::hf::detail {

namespace {

// Fixed slots of atomics: the handler may run at any moment, on any thread,
// so it takes no lock and allocates nothing.
struct Slot {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<bool> damaged{false};
  std::atomic<bool> claimed{false};  // taken by a mapping
  std::atomic<bool> used{false};     // its range is set: the handler may look

};
constexpr int kSlots = 256;
Slot g_slots[kSlots];
std::uintptr_t g_page = 4096;
struct sigaction g_previous {};

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& s : g_slots) {
    if (!s.used.load(std::memory_order_acquire) || at < s.begin.load() || at >= s.end.load()) continue;
    void* page = reinterpret_cast<void*>(at & ~(g_page - 1));
    // mmap is a plain system call here; the new page reads as zeros.
    if (::mmap(page, g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
      s.damaged.store(true);
      return;  // the faulting read runs again, on the zero page
    }
  }
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
    g_previous.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler != nullptr) {
    g_previous.sa_handler(sig);
    return;
  }
  // Not ours: returning with the default action re-runs the read, which dies as it would have.
  ::signal(SIGBUS, SIG_DFL);
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

}  // namespace

int guard_mapping(const void* base, std::size_t size) {
  install();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    Slot& s = g_slots[i];
    if (!s.claimed.compare_exchange_strong(expected, true)) continue;
    s.begin.store(reinterpret_cast<std::uintptr_t>(base));
    s.end.store(reinterpret_cast<std::uintptr_t>(base) + size);
    s.damaged.store(false);
    s.used.store(true, std::memory_order_release);
    return i;
  }
  return -1;
}

void unguard_mapping(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  Slot& s = g_slots[slot];
  s.begin.store(0);
  s.end.store(0);
  s.used.store(false, std::memory_order_release);
  s.claimed.store(false);
}

bool mapping_damaged(int slot) { return slot >= 0 && slot < kSlots && g_slots[slot].damaged.load(); }

}  // namespace attn::hf::detail
