// `attn explain FILE --stage ID [--head H] --row I --col J`: prints how one
// cell was computed, with its real numbers (Explanation::to_text). Arguments
// are checked against the actual trace first so a typo gets a message that
// lists what is valid instead of a bare "out of range".
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/explain/explain.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "loaded_scenario.hpp"
#include "stage_choice.hpp"

namespace attn::cli {

namespace {

struct ExplainOptions {
  std::string path;
  std::string stage;
  int head = -1;
  bool head_given = false;
  int row = 0;
  int col = 0;
};

void check_index(const char* option, int value, long long size, const Stage& st, const char* unit) {
  if (value < 0 || value >= size) {
    throw CliError(std::string(option) + ": " + std::to_string(value) + " is out of range (stage \"" + to_string(st.id) +
                   "\" has " + std::to_string(size) + " " + unit + ")");
  }
}

int run_explain(const ExplainOptions& opts) {
  const LoadedScenario loaded = load_and_compute(opts.path);
  const Stage& st = resolve_stage(loaded.trace, {opts.stage, opts.head, opts.head_given});
  check_index("--row", opts.row, st.value.rows(), st, st.value.rows() == 1 ? "row" : "rows");
  check_index("--col", opts.col, st.value.cols(), st, st.value.cols() == 1 ? "column" : "columns");
  Explanation e;
  try {
    e = explain(loaded.trace, loaded.file.scenario, st.ref(), opts.row, opts.col);
  } catch (const std::out_of_range& err) {
    throw CliError(err.what());
  }
  std::cout << e.to_text();
  return 0;
}

}  // namespace

void add_explain_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ExplainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "Show the arithmetic behind one cell of one stage, with the actual numbers.");
  cmd->add_option("file", opts->path, "Scenario file (JSON, format \"attnviz-scenario\")")->required();
  cmd->add_option("--stage", opts->stage, "Stage id, e.g. scores, weights, output (see `attn stages FILE`)")
      ->required();
  CLI::Option* head = cmd->add_option("--head", opts->head,
                                      "Head index for per-head stages (default 0 when there is one head)")
                           ->check(kDecimal);
  cmd->add_option("--row", opts->row, "Row of the cell (0-based)")->required()->check(kDecimal);
  cmd->add_option("--col", opts->col, "Column of the cell (0-based)")->required()->check(kDecimal);
  cmd->callback([opts, head, &action] {
    opts->head_given = head->count() > 0;
    action = [opts] { return run_explain(*opts); };
  });
}

}  // namespace attn::cli
