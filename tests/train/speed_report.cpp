// Not a test: a timing report run by hand (skipped by default, because
// timed assertions do not belong in shared CI). Prints steps and seconds
// to 99% held-out accuracy for the reference run and each task:
//   ./test_train --no-skip -tc="speed report*"
#include <doctest/doctest.h>

#include <chrono>
#include <ctime>
#include <cstdio>

#include "train_helpers.hpp"

using namespace attn::train;
using namespace attn::train::testing;

namespace {

// Wall and processor seconds of the training steps alone (held-out checks
// every 5 steps are not counted); processor time, summed over threads, shows
// the cost when the shared machine is busy and wall time is meaningless.
void report(const char* label, TrainConfig config, int max_steps) {
  using Clock = std::chrono::steady_clock;
  Trainer trainer(config);
  double wall = 0, cpu = 0;
  Evaluation e;
  while (trainer.steps_done() < max_steps) {
    const auto start = Clock::now();
    const std::clock_t cpu_start = std::clock();
    for (int i = 0; i < 5; ++i) trainer.step();
    cpu += static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    wall += std::chrono::duration<double>(Clock::now() - start).count();
    e = trainer.evaluate();
    if (e.accuracy >= 0.99) break;
  }
  std::printf("%-26s steps %5d  wall %6.2f s  cpu %6.2f s  (%.1f ms/step wall)  held-out accuracy %.4f\n", label,
              trainer.steps_done(), wall, cpu, 1000 * wall / trainer.steps_done(), e.accuracy);
}


}  // namespace

TEST_CASE("speed report: steps and seconds to 99% held-out accuracy" * doctest::skip()) {
  report("induction (reference)", reference_config(TaskKind::Induction), 3000);
  TrainConfig offset = reference_config(TaskKind::Induction);
  offset.task.random_offset = true;
  report("induction, random offset", offset, 3000);
  report("copy", reference_config(TaskKind::Copy), 3000);
  report("reverse", reference_config(TaskKind::Reverse), 3000);
  report("sort", reference_config(TaskKind::Sort), 3000);
  report("previous-token", reference_config(TaskKind::PreviousToken), 3000);
  TrainConfig kv = reference_config(TaskKind::KeyValue);
  kv.task.length = 8;
  report("key-value (8 pairs)", kv, 3000);
}
