// `attn trace FILE`: the whole computation as attnviz-trace JSON on stdout,
// for scripts, diffs and other tools. Compact by default; --indent for people.
// Written stage by stage (trace_stream.hpp) so big scenarios stay affordable.
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "commands/commands.hpp"
#include "loaded_scenario.hpp"
#include "trace_stream.hpp"

namespace attn::cli {

namespace {

struct TraceOptions {
  std::string path;
  int indent = -1;  // nlohmann: -1 = compact
};

int run_trace(const TraceOptions& opts) {
  LoadedScenario loaded = load_and_compute(opts.path);
  write_trace_json(std::cout, std::move(loaded.trace), opts.indent);
  std::cout << "\n";
  return 0;
}

}  // namespace

void add_trace_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<TraceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "trace", "Compute the scenario and print every stage as JSON (format \"attnviz-trace\").");
  cmd->add_option("file", opts->path, "Scenario file (JSON, format \"attnviz-scenario\")")->required();
  cmd->add_option("--indent", opts->indent, "Indent the JSON by N spaces (default: one compact line)")
      ->check(CLI::Range(0, 8));
  cmd->callback([opts, &action] { action = [opts] { return run_trace(*opts); }; });
}

}  // namespace attn::cli
