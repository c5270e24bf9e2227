// `make bench`, training table: for each task, with a fixed seed, trains the
// tiny attention model until 99% held-out accuracy (evaluated every 10
// steps, at most 3000 steps) and prints the steps, seconds and ms per step.
// When python3-torch is installed, bench/train_torch.py trains the SAME
// initial weights (handed over as an attnviz model file) on the same
// settings in float32 with 2 threads, and its steps, seconds and the ratio
// torch seconds / attnviz seconds go in the same row. Numbers only, never
// assertions: timings vary run to run on a shared machine.
//
// Usage: train_bench [--tasks induction,copy,...] [--cap N] [--no-torch]
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"
#include "python_json.hpp"

namespace {

using namespace attn::train;

constexpr double kTarget = 0.99;
constexpr int kEvalEvery = 10;

struct Settings {
  std::vector<std::string> tasks = {"induction", "copy", "reverse", "sort", "previous-token", "key-value"};
  int cap = 3000;
  bool torch = true;
};

// The reference settings; key-value needs distinct keys from half
// the vocabulary, so it gets 8 pairs instead of 12.
TrainConfig config_for(const std::string& task) { return reference_config(task_from_name(task)); }

struct Run {
  int steps = 0;
  double seconds = 0, accuracy = 0;
};

Run train_to_target(Trainer& trainer, int cap) {
  const auto start = std::chrono::steady_clock::now();
  double acc = trainer.evaluate().accuracy;
  while (acc < kTarget && trainer.steps_done() < cap) {
    trainer.step();
    if (trainer.steps_done() % kEvalEvery == 0) acc = trainer.evaluate().accuracy;
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return {trainer.steps_done(), took.count(), acc};
}

std::string steps_text(int steps, double acc, int cap) {
  return acc >= kTarget ? std::to_string(steps) : ">" + std::to_string(cap);
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  CLI::App app{"train_bench: steps and seconds to 99% held-out accuracy per task, against PyTorch"};
  app.add_option("--tasks", s.tasks, "Tasks to train (default: all six)")->delimiter(',');
  app.add_option("--cap", s.cap, "Most steps per run (default 3000)")->check(CLI::Range(1, 1000000));
  bool no_torch = false;
  app.add_flag("--no-torch", no_torch, "Skip the PyTorch column");
  CLI11_PARSE(app, argc, argv);
  s.torch = !no_torch;
  std::printf("Training to %.0f%% held-out accuracy (evaluated every %d steps, at most %d steps): vocab 16, length 12\n"
              "(key-value: 8 pairs), d_model 64, 4 heads, 2 layers, learned positions, batch 64, lr 3e-3, seed 1.\n"
              "attnviz: double precision, all cores; PyTorch: float32, 2 threads, same initial weights, own data.\n\n",
              kTarget * 100, kEvalEvery, s.cap);
  std::printf("%-15s %7s %9s %8s   %11s %11s %8s\n", "task", "steps", "seconds", "ms/step", "torch steps",
              "torch s", "ratio");
  const std::string temp = "/tmp/attnviz-train-bench-" + std::to_string(::getpid()) + ".json";
  for (const std::string& task : s.tasks) {
    const TrainConfig config = config_for(task);
    Trainer trainer(config);
    attn::io::save_model(temp, attn::io::ModelFile{config, trainer.model(), 0});
    const Run run = train_to_target(trainer, s.cap);
    std::printf("%-15s %7s %9.2f %8.2f", task.c_str(), steps_text(run.steps, run.accuracy, s.cap).c_str(),
                run.seconds, 1000 * run.seconds / std::max(1, run.steps));
    std::fflush(stdout);
    if (s.torch) {
      const nlohmann::json j = bench::run_python_json(std::string(ATTNVIZ_BENCH_DIR) + "/train_torch.py " + temp + " " +
                                                      std::to_string(kTarget) + " " + std::to_string(s.cap) + " " +
                                                      std::to_string(kEvalEvery));
      if (j.contains("error")) {
        std::printf("   (%s)", j["error"].get<std::string>().c_str());
      } else {
        const double seconds = j["seconds"];
        std::printf("   %11s %11.2f %8.2f", steps_text(j["steps"], j["accuracy"], s.cap).c_str(), seconds,
                    seconds / run.seconds);
      }
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  std::remove(temp.c_str());
  std::printf("\nratio = torch seconds / attnviz seconds to reach the target (above 1: attnviz is faster)\n");
  return 0;
}
