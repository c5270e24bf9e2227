// `attn check FILE`: validates a scenario and prints a one-line summary.
// It also computes the trace, so "ok" means `attn trace` will succeed too
// (an overflow is only found by computing).
#include <iostream>
#include <memory>
#include <string>

#include "commands/commands.hpp"
#include "loaded_scenario.hpp"
#include "summary.hpp"

namespace attn::cli {

namespace {

int run_check(const std::string& path) {
  const LoadedScenario loaded = load_and_compute(path);
  for (const std::string& w : loaded.file.warnings) std::cerr << "attn: " << path << ": warning: " << w << "\n";
  std::cout << "ok: " << summarize(loaded.file.scenario) << "\n";
  return 0;
}

}  // namespace

void add_check_command(CLI::App& app, Action& action) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Validate a scenario file and print a one-line summary (exit 2 with the reason if bad).");
  cmd->add_option("file", *path, "Scenario file (JSON, format \"attnviz-scenario\")")->required();
  cmd->callback([path, &action] { action = [path] { return run_check(*path); }; });
}

}  // namespace attn::cli
