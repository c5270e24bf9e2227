// `attn export FILE --stage ID [--head H] -o OUT.csv|OUT.npy|OUT.json`: one
// stage as CSV or NumPy .npy, or the whole trace as attnviz-trace JSON; the
// format follows the extension. Masked logits are -inf in both CSV and .npy.
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "attn/io/excerpt.hpp"
#include "attn/io/matrix_export.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "loaded_scenario.hpp"
#include "output_guard.hpp"
#include "stage_choice.hpp"
#include "trace_stream.hpp"

namespace attn::cli {
namespace {

struct ExportOptions {
  std::string path;
  std::string out;
  StageChoice choice;
};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

int run_export(const ExportOptions& opts) {
  const bool json = ends_with(opts.out, ".json");
  if (!json && !ends_with(opts.out, ".csv") && !ends_with(opts.out, ".npy"))
    // The file's name, not its folders, and its ending even when long: the ending is the point.
    throw CliError("-o: cannot tell the format of " + io::quoted_ending(std::filesystem::path(opts.out).filename().string()) +
                   " (end it in .csv, .npy or .json)");
  if (!json && opts.choice.stage.empty()) throw CliError("--stage: which stage to export? (e.g. --stage weights --head 0)");
  refuse_output_over_input("-o", opts.out, {opts.path});
  LoadedScenario loaded = load_and_compute(opts.path);
  try {
    if (json) {
      std::ostringstream text;
      write_trace_json(text, std::move(loaded.trace), -1);
      text << "\n";
      io::write_text_atomically(opts.out, text.str());
    } else {
      io::write_stage_file(opts.out, resolve_stage(loaded.trace, opts.choice));
    }
  } catch (const io::FormatError& e) {
    throw CliError(e.what());
  }
  return 0;
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write one stage as CSV or NumPy .npy, or the whole trace as JSON (the format follows -o's extension).");
  cmd->add_option("file", opts->path, "Scenario file (JSON, format \"attnviz-scenario\")")->required();
  cmd->add_option("--stage", opts->choice.stage, "Stage id, e.g. scores, weights, output (see `attn stages FILE`)");
  CLI::Option* head = cmd->add_option("--head", opts->choice.head,
                                      "Head index for per-head stages (default 0 when there is one head)")
                          ->check(kDecimal);
  cmd->add_option("-o,--output", opts->out, "OUT.csv, OUT.npy (one stage) or OUT.json (the whole trace)")->required();
  cmd->callback([opts, head, &action] {
    opts->choice.head_given = head->count() > 0;
    action = [opts] { return run_export(*opts); };
  });
}

}  // namespace attn::cli
