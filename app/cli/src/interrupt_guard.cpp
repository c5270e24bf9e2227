// Signals turned into a checked flag (interrupt_guard.hpp).
#include "interrupt_guard.hpp"

#include <csignal>

#include "cli_error.hpp"

namespace attn::cli {

namespace {

std::atomic<bool> g_interrupted{false};
void (*g_old_int)(int) = SIG_DFL;
void (*g_old_term)(int) = SIG_DFL;

extern "C" void note_interrupt(int) { g_interrupted.store(true); }

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  g_old_int = std::signal(SIGINT, note_interrupt);
  g_old_term = std::signal(SIGTERM, note_interrupt);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, g_old_int);
  std::signal(SIGTERM, g_old_term);
}

bool InterruptGuard::interrupted() { return g_interrupted.load(); }

void InterruptGuard::check() {
  if (interrupted()) throw CliError("interrupted; nothing was written, and the old output (if any) is unchanged", 130);
}

}  // namespace attn::cli
