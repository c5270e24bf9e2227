// Entry point of `attn`, the headless companion of the attnviz app.
// Parses arguments with CLI11, runs one subcommand, and maps every failure to
// one "attn: ..." line on stderr with exit status 2 (bad input or usage) or
// 1 (a bug), so scripts and tests can rely on both.
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "attn/hf/model_error.hpp"
#include "attn/io/scenario_file.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "tuned_copy.hpp"

namespace {

constexpr const char* kDescription =
    "attn: compute scaled dot-product attention step by step from a scenario file\n"
    "(format \"attnviz-scenario\") and print the stages, a cell's arithmetic, or a check.\n"
    "Exit status: 0 ok, 2 bad input or usage (one \"attn: ...\" line on stderr), 1 internal error.";

constexpr const char* kFooter =
    "Examples:\n"
    "  attn check assets/scenarios/default.json\n"
    "  attn stages assets/scenarios/default.json\n"
    "  attn explain assets/scenarios/default.json --stage weights --row 0 --col 1\n"
    "  attn trace assets/scenarios/default.json --indent 1\n"
    "  attn lesson check assets/lessons/01_attention_from_scratch.json\n"
    "  attn why-scale --dk 64\n"
    "  attn flash assets/scenarios/flash_tiles.json --block-rows 4 --block-cols 4\n"
    "  attn decode assets/scenarios/masking_causal.json --step 2 --head 0\n"
    "  attn train --task induction --steps 300 -o model.json\n"
    "  attn train --scenario model.json --input \"A B C A B\" --layer 0 -o scene.json\n"
    "  attn class simulate --join http://127.0.0.1:8765 --code K7M3QX --students 300";

int fail(const std::string& message, int code) {
  std::cerr << "attn: " << attn::cli::one_line(message) << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  attn::launch::run_tuned_copy_if_any(argv);  // the package's AVX2 copy, where the CPU has AVX2
  using namespace attn::cli;
  std::ios::sync_with_stdio(false);  // traces can be hundreds of megabytes
  CLI::App app{kDescription, "attn"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("attn ") + ATTNVIZ_VERSION + ", built for " + attn::launch::built_for());
  app.require_subcommand(1);

  Action action;
  add_check_command(app, action);
  add_stages_command(app, action);
  add_explain_command(app, action);
  add_trace_command(app, action);
  add_lesson_command(app, action);
  add_why_scale_command(app, action);
  add_export_command(app, action);
  add_train_command(app, action);
  add_flash_command(app, action);
  add_decode_command(app, action);
  add_model_command(app, action);
  add_class_command(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help / --version: printed to stdout, exit 0
  } catch (const CLI::ParseError& e) {
    // Point at the help of the subcommand being parsed, when there is one.
    std::string help = "attn --help";
    for (const CLI::App* sub : app.get_subcommands()) help = "attn " + sub->get_name() + " --help";
    return fail(std::string(e.what()) + " (see '" + help + "')", kExitBadInput);
  }

  try {
    return action ? action() : kExitBadInput;
  } catch (const CliError& e) {
    return fail(e.what(), e.code);
  } catch (const attn::io::FormatError& e) {
    return fail(e.what(), kExitBadInput);
  } catch (const attn::hf::ModelError& e) {  // a model file, named in the message
    return fail(e.what(), kExitBadInput);
  } catch (const std::bad_alloc&) {
    return fail("out of memory", kExitInternal);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), kExitInternal);
  }
}
