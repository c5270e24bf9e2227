// `attn explain FILE --stage ID [--head H] --row I --col J`: prints how one
// cell was computed, with its real numbers (Explanation::to_text). Arguments
// are checked against the actual trace first so a typo gets a message that
// lists what is valid instead of a bare "out of range".
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/explain.hpp"
#include "cli_error.hpp"
#include "commands.hpp"
#include "loaded_scenario.hpp"

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

std::string stage_ids(const Trace& trace) {
  std::vector<std::string> ids;
  for (const Stage& st : trace.stages) {
    bool seen = false;
    for (const std::string& id : ids) seen = seen || id == st.id;
    if (!seen) ids.push_back(st.id);
  }
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

// Picks the stage named by --stage/--head, or explains which ones exist.
const Stage& resolve_stage(const Trace& trace, const ExplainOptions& opts) {
  const Stage* any = nullptr;
  for (const Stage& st : trace.stages) {
    if (st.id == opts.stage) {
      any = &st;
      break;
    }
  }
  if (!any) {
    throw CliError("--stage: unknown stage \"" + opts.stage + "\" (valid: " + stage_ids(trace) + ")");
  }
  const int n_heads = trace.dims.n_heads;
  if (any->head < 0) {
    if (opts.head_given) {
      throw CliError("--head: stage \"" + opts.stage + "\" is shared by all heads; leave out --head");
    }
    return *any;
  }
  if (!opts.head_given && n_heads > 1) {
    throw CliError("--head: stage \"" + opts.stage + "\" has one grid per head; pass --head 0 to " +
                   std::to_string(n_heads - 1));
  }
  const int head = opts.head_given ? opts.head : 0;
  const Stage* st = trace.find(opts.stage, head);
  if (!st) {
    throw CliError("--head: " + std::to_string(head) + " is out of range (the scenario has " +
                   std::to_string(n_heads) + (n_heads == 1 ? " head" : " heads") + ", 0 to " +
                   std::to_string(n_heads - 1) + ")");
  }
  return *st;
}

void check_index(const char* option, int value, long long size, const Stage& st, const char* unit) {
  if (value < 0 || value >= size) {
    throw CliError(std::string(option) + ": " + std::to_string(value) + " is out of range (stage \"" + st.id +
                   "\" has " + std::to_string(size) + " " + unit + ")");
  }
}

int run_explain(const ExplainOptions& opts) {
  const LoadedScenario loaded = load_and_compute(opts.path);
  const Stage& st = resolve_stage(loaded.trace, opts);
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

// CLI11 reads "0x1" and "1e0" as 1; an index is written in plain decimal.
const CLI::Validator kDecimal(
    [](std::string& text) -> std::string {
      const size_t digits = text.find_first_not_of("0123456789", text.rfind('-', 0) == 0 ? 1 : 0);
      const bool ok = !text.empty() && text != "-" && digits == std::string::npos;
      return ok ? std::string() : "expected a whole number in decimal, got \"" + text + "\"";
    },
    "INT");

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
