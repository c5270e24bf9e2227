#pragma once
// Ctrl-C (or SIGTERM) during a long write: instead of dying where it stands
// and leaving its scratch files and temporary output behind (gigabytes for a
// model's attention weights), the command notices at its next check, throws,
// and its destructors remove what it made. While a guard lives, the signals
// only set a flag; the old handlers come back with its end.
#include <atomic>

namespace attn::cli {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();
  // Throws CliError "interrupted; nothing was written" (exit 130) once a signal came.
  static void check();
};

}  // namespace attn::cli
