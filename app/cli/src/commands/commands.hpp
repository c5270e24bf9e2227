// The attn subcommands. Each add_* function registers one subcommand and its
// options on the CLI11 app; when that subcommand is chosen, it stores the
// work to do in `action`, which main() runs after parsing succeeded.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace attn::cli {

// Runs the chosen command; returns the exit code, throws CliError on failure.
using Action = std::function<int()>;

void add_trace_command(CLI::App& app, Action& action);
void add_explain_command(CLI::App& app, Action& action);
void add_check_command(CLI::App& app, Action& action);
void add_stages_command(CLI::App& app, Action& action);
void add_lesson_command(CLI::App& app, Action& action);
void add_why_scale_command(CLI::App& app, Action& action);
void add_export_command(CLI::App& app, Action& action);
void add_train_command(CLI::App& app, Action& action);
void add_flash_command(CLI::App& app, Action& action);
void add_decode_command(CLI::App& app, Action& action);
void add_model_command(CLI::App& app, Action& action);
void add_class_command(CLI::App& app, Action& action);

}  // namespace attn::cli
