// `attn explain FILE --stage ID [--head H] --row I --col J`: prints how one
// cell was computed, with its real numbers (Explanation::to_text). Arguments
// are checked against the actual trace first so a typo gets a message that
// lists what is valid instead of a bare "out of range".
// With --why it prints why the cell's score has its value instead: the
// score split by dimension and rotary pair, or, for a trained model (a
// model file and --input), by the sources of its residual stream.
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/explain/explain.hpp"
#include "attn/io/model_file.hpp"
#include "attn/train/score_sources.hpp"
#include "attn/why/score_split.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "loaded_scenario.hpp"
#include "stage_choice.hpp"
#include "train/train_input.hpp"
#include "why/why_report.hpp"

namespace attn::cli {

namespace {

struct ExplainOptions {
  std::string path;
  std::string stage;
  int head = -1;
  bool head_given = false;
  int row = 0;
  int col = 0;
  bool why = false;
  bool json = false;
  std::string input;  // with a model file: its tokens
  int layer = 0;
};

void check_index(const char* option, int value, long long size, const Stage& st, const char* unit) {
  if (value < 0 || value >= size) {
    throw CliError(std::string(option) + ": " + std::to_string(value) + " is out of range (stage \"" + to_string(st.id) +
                   "\" has " + std::to_string(size) + " " + unit + ")");
  }
}

void print_why(const nlohmann::json& json, const std::string& text, bool as_json) {
  if (as_json) std::cout << json.dump(2) << "\n";
  else std::cout << text;
}

// A scenario's score S[row, col] of the head, read from the trace.
int run_why_scene(const ExplainOptions& opts) {
  const LoadedScenario loaded = load_and_compute(opts.path);
  const int head = opts.head_given ? opts.head : 0;
  if (!opts.stage.empty()) {
    const Stage& st = resolve_stage(loaded.trace, {opts.stage, opts.head, opts.head_given});
    if (!is_query_key_grid(st.id))
      throw CliError("--why splits a score: --stage must be a queries × keys stage (scores, scaled, masked, "
                     "softmax, weights, ...), not \"" + to_string(st.id) + "\"");
  }
  ScoreSplit split;
  try {
    split = split_score(loaded.trace, loaded.file.scenario, head, opts.row, opts.col);
  } catch (const std::exception& e) {
    throw CliError(std::string("--why: ") + e.what());
  }
  print_why(why_json(split), why_text(split), opts.json);
  return 0;
}

// A trained model's score in one layer on the given tokens, by source.
int run_why_model(const ExplainOptions& opts) {
  if (!opts.stage.empty()) throw CliError("--stage: not used with a model (--why splits the layer's scores)");
  const io::ModelFile f = io::load_model(opts.path);
  const std::vector<int> tokens = input_tokens(f, opts.input);
  const int n = static_cast<int>(tokens.size());
  if (opts.row >= n || opts.col >= n)
    throw CliError("--row/--col: [" + std::to_string(opts.row) + "," + std::to_string(opts.col) + "] is outside the " +
                   std::to_string(n) + " tokens of --input");
  SourceSplit split;
  try {
    split = train::split_score_by_source(f.model, padded_tokens(f, tokens), opts.layer, opts.head_given ? opts.head : 0,
                                         opts.row, opts.col);
  } catch (const std::invalid_argument& e) {
    throw CliError(std::string("--why: ") + e.what());
  }
  print_why(why_json(split), why_text(split), opts.json);
  return 0;
}

int run_explain(const ExplainOptions& opts) {
  if (!opts.why && (opts.json || !opts.input.empty()))
    throw CliError(std::string(opts.json ? "--json" : "--input") + ": only with --why");
  if (opts.why) return opts.input.empty() ? run_why_scene(opts) : run_why_model(opts);
  if (opts.stage.empty()) throw CliError("--stage: which stage? (see `attn stages FILE`)");
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
      "explain",
      "Show the arithmetic behind one cell of one stage, with the actual numbers; with --why, why its score has its "
      "value.");
  cmd->add_option("file", opts->path,
                  "Scenario file (JSON, format \"attnviz-scenario\"), or with --why --input a model from `attn train`")
      ->required();
  cmd->add_option("--stage", opts->stage, "Stage id, e.g. scores, weights, output (see `attn stages FILE`)");
  CLI::Option* head = cmd->add_option("--head", opts->head,
                                      "Head index for per-head stages (default 0 when there is one head)")
                           ->check(kDecimal);
  cmd->add_option("--row", opts->row, "Row of the cell (0-based)")->required()->check(kDecimal);
  cmd->add_option("--col", opts->col, "Column of the cell (0-based)")->required()->check(kDecimal);
  cmd->add_flag("--why", opts->why,
                "Split the score S[row, col] of the head: by dimension and by rotary pair, or for a model by the "
                "sources of its residual stream");
  cmd->add_flag("--json", opts->json, "With --why: print JSON (format \"attnviz-why\")");
  cmd->add_option("--input", opts->input, "With --why and a model file: its tokens, e.g. \"A B C A B\"");
  cmd->add_option("--layer", opts->layer, "With --why and a model file: the layer, from 0 (default 0)")
      ->check(kNonNegativeDecimal);
  cmd->callback([opts, head, &action] {
    opts->head_given = head->count() > 0;
    action = [opts] { return run_explain(*opts); };
  });
}

}  // namespace attn::cli
