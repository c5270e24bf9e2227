// `attn decode FILE [--steps N] [--step T] [--head H] [--json | --explain STAGE
// --row R --col C]`: generates the
// scenario's tokens one at a time with a KV cache (attn/decode/decode.hpp) and
// prints, per step, what was computed and what was reused, the new rows and
// the counters, then checks every decoded row against the full trace. Steps
// are made one after another and let go once printed, so a long scene needs
// only one cache in memory.
#include <algorithm>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "attn/decode/decode.hpp"
#include "attn/explain/decode_explain.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "decode_report.hpp"
#include "loaded_scenario.hpp"
#include "stage_choice.hpp"

namespace attn::cli {

namespace {

// Decoded rows further than this from the full trace's mean a bug, not
// rounding (the tests hold them to 1e-12).
constexpr double kCheckLimit = 1e-9;

struct DecodeOptions {
  std::string path;
  int steps = -1;  // -1: every token
  int step = -1;   // -1: print every step
  int head = -1;   // -1: every head
  bool json = false;
  std::string explain;  // a decode stage's name: explain one of its cells at --step instead
  int row = 0, col = 0;
};

// The decode stage --explain names, or a CliError listing them.
StageKind decode_stage_named(const std::string& name) {
  std::string valid;
  for (const StageInfo& info : kStages) {
    if (static_cast<int>(info.kind) < static_cast<int>(StageKind::step_q)) continue;
    if (info.name == name) return info.kind;
    valid += (valid.empty() ? "" : ", ") + std::string(info.name);
  }
  throw CliError("--explain: \"" + name + "\" is no decode stage (valid: " + valid + ")");
}

// One cell of step `step`, explained with its numbers.
void print_explanation(const DecodeStep& step, const Scenario& s, const DecodeOptions& opts, const Dims& d) {
  const int n_heads = d.n_heads;
  const StageKind kind = decode_stage_named(opts.explain);
  int head = -1;
  if (info_of(kind).per_head) {
    if (opts.head < 0 && n_heads > 1)
      throw CliError("--head: stage \"" + opts.explain + "\" has one row per head; pass --head 0 to " +
                     std::to_string(n_heads - 1));
    head = std::max(opts.head, 0);
    // A head that shares its group's cache reads the first head's (grouped-query attention).
    const bool key_value = kind == StageKind::step_k || kind == StageKind::step_v || kind == StageKind::k_cache ||
                           kind == StageKind::v_cache;
    if (key_value) head = d.kv_leader(head);
  }
  try {
    std::cout << explain_decode(step, s, {kind, head}, opts.row, opts.col).to_text();
  } catch (const std::out_of_range& e) {
    throw CliError(std::string("--explain: ") + e.what());
  }
}

// "--head: 5 is out of range (the scenario has 2 heads, 0 to 1)", as `attn explain` says it.
void check_range(const char* option, int value, int count, const std::string& owner, const std::string& unit) {
  if (value < 0 || value >= count)
    throw CliError(std::string(option) + ": " + std::to_string(value) + " is out of range (" + owner + " has " +
                   std::to_string(count) + " " + unit + (count == 1 ? "" : "s") + ", 0 to " +
                   std::to_string(count - 1) + ")");
}

int run_decode(const DecodeOptions& opts) {
  const LoadedScenario loaded = load_and_compute(opts.path);
  const Scenario& s = loaded.file.scenario;
  const Dims& d = loaded.trace.dims;
  const int steps = opts.steps < 0 ? d.n_q : opts.steps;
  try {
    check_decodable(s, steps);
  } catch (const std::invalid_argument& e) {
    throw CliError(opts.path + ": " + e.what());
  }
  if (opts.step >= 0) check_range("--step", opts.step, steps, "the decode", "step");
  if (!opts.explain.empty() && opts.step < 0) throw CliError("--explain: which step? pass --step T as well");
  if (opts.head >= 0) check_range("--head", opts.head, d.n_heads, "the scenario", "head");

  // JSON steps are printed as they are decoded: kept, 4096 steps of
  // growing rows held 1.4 GB before the first byte went out. The text is the
  // same as one dump of {"format", "steps", "summary", "version"}.
  bool first_json_step = true;
  if (opts.json && opts.explain.empty()) std::cout << R"({"format":"attnviz-decode","steps":[)";
  DecodeCheck check;
  DecodeCache cache;
  DecodeStep step;
  for (int t = 0; t < steps; ++t) {
    try {
      step = decode_step(s, cache);
    } catch (const ComputeError& e) {
      throw CliError(opts.path + ": " + e.what());
    }
    check.see(step, loaded.trace);
    if (!opts.explain.empty()) {
      if (t == opts.step) print_explanation(step, s, opts, d);
    } else if (opts.step < 0 || opts.step == t) {
      if (opts.json) {
        std::cout << (first_json_step ? "" : ",") << step_json(step, opts.head).dump();
        first_json_step = false;
      } else
        print_step(std::cout, step, opts.head);
    }
    cache = step.cache;
  }
  if (!opts.explain.empty()) {
    // The explanation alone, as `attn explain` prints it.
  } else if (opts.json) {
    std::cout << R"(],"summary":)" << summary_json(step, check).dump() << R"(,"version":1})" << "\n";
  } else {
    print_summary(std::cout, step, check);
  }
  if (check.head_output > kCheckLimit || check.output > kCheckLimit)
    throw CliError("the decoded rows differ from the full trace by up to " +
                       std::to_string(std::max(check.head_output, check.output)) + ": a bug, please report it",
                   kExitInternal);
  return 0;
}

}  // namespace

void add_decode_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DecodeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "decode",
      "Generate the tokens one at a time with a KV cache: what each step computes and reuses, its rows "
      "and counts, checked against the full causal trace.");
  cmd->add_option("file", opts->path, "Scenario file (JSON, format \"attnviz-scenario\"), with a causal-like mask")
      ->required();
  cmd->add_option("--steps", opts->steps, "Decode only the first N tokens (default: all)")->check(kNonNegativeDecimal);
  cmd->add_option("--step", opts->step, "Print only step T (0-based); the check still covers every step")
      ->check(kNonNegativeDecimal);
  cmd->add_option("--head", opts->head, "Show only head H (and the cache it reads)")->check(kNonNegativeDecimal);
  CLI::Option* json = cmd->add_flag("--json", opts->json, "Print JSON (format \"attnviz-decode\") instead of text");
  cmd->add_option("--explain", opts->explain,
                  "Explain one cell of step T (--step) with its numbers: a decode stage such as step_scores, "
                  "step_weights, k_cache")
      ->excludes(json);
  cmd->add_option("--row", opts->row, "With --explain: the cell's row (0 but in k_cache and v_cache)")
      ->check(kNonNegativeDecimal);
  cmd->add_option("--col", opts->col, "With --explain: the cell's column")->check(kNonNegativeDecimal);
  cmd->callback([opts, &action] { action = [opts] { return run_decode(*opts); }; });
}

}  // namespace attn::cli
