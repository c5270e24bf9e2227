// `attn flash FILE [--head H] [--block-rows R] [--block-cols C] [--sram M]
// [--tile I,J] [--explain STAGE ROW COL] [--json]`: one head computed as
// FlashAttention does it, tile by tile, printed with the check against the
// plain head output and the slow-memory counts; or one tile cell explained.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/explain/flash_explain.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "flash/flash_report.hpp"
#include "loaded_scenario.hpp"

namespace attn::cli {

namespace {

struct FlashArgs {
  std::string path;
  int head = 0;
  int block_rows = 0, block_cols = 0;  // 0: not given, 2 (or the whole sequence when shorter)
  long long sram = 1024;
  std::string tile;                  // "I,J"
  std::vector<std::string> explain;  // STAGE ROW COL
  bool json = false;
};

int whole_number(const std::string& option, const std::string& text) {
  size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw CliError(option + ": expected a whole number, got \"" + text + "\"");
  return v;
}

std::optional<TileChoice> tile_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const size_t comma = text.find(',');
  if (comma == std::string::npos) throw CliError("--tile: expected I,J (a query block and a key block), got \"" + text + "\"");
  return TileChoice{whole_number("--tile", text.substr(0, comma)), whole_number("--tile", text.substr(comma + 1))};
}

std::string tile_stage_names() {
  std::string names;
  for (const StageInfo& s : kStages)
    if (!is_trace_stage(s.kind)) names += (names.empty() ? "" : ", ") + std::string(s.name);
  return names;
}

FlashCell cell_of(const std::vector<std::string>& words, std::optional<TileChoice> tile) {
  const std::optional<StageKind> kind = stage_kind_named(words.at(0));
  if (!kind || is_trace_stage(*kind))
    throw CliError("--explain: \"" + words[0] + "\" is not a FlashAttention stage (valid: " + tile_stage_names() + ")");
  FlashCell c{*kind, 0, 0, whole_number("--explain ROW", words.at(1)), whole_number("--explain COL", words.at(2))};
  if (*kind != StageKind::flash_output) {
    if (!tile) throw CliError("--explain " + words[0] + ": pass --tile I,J to say which tile (for flash_block_output, I is the block)");
    c.i = tile->i, c.j = tile->j;
  }
  return c;
}

int run_flash(const FlashArgs& a) {
  const LoadedScenario loaded = load_and_compute(a.path);
  const Trace& trace = loaded.trace;
  const std::optional<TileChoice> tile = tile_of(a.tile);
  FlashOptions o;
  o.head = a.head;
  o.block_rows = a.block_rows > 0 ? a.block_rows : std::min(2, trace.dims.n_q);
  o.block_cols = a.block_cols > 0 ? a.block_cols : std::min(2, trace.dims.n_k);
  FlashAttention fa;
  try {
    fa = compute_flash(trace, o);
    if (tile) fa.tile(tile->i, tile->j);  // a tile that does not exist is named here, before any output
    if (!a.explain.empty()) {
      const Explanation e = explain_flash(fa, trace, cell_of(a.explain, tile));
      std::cout << e.to_text();
      return 0;
    }
  } catch (const std::invalid_argument& err) {
    throw CliError(err.what());
  } catch (const std::out_of_range& err) {
    throw CliError(err.what());
  }
  const FlashTraffic io = flash_traffic(fa, trace.dims.d_k, a.sram);
  if (a.json) std::cout << flash_json(fa, io, tile).dump(1) << "\n";
  else print_flash(std::cout, fa, io, tile);
  return 0;
}

}  // namespace

void add_flash_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<FlashArgs>();
  CLI::App* cmd = app.add_subcommand(
      "flash", "Compute one head as FlashAttention does, tile by tile, and check it against the plain softmax.");
  cmd->add_option("file", args->path, "Scenario file (JSON, format \"attnviz-scenario\")")->required();
  cmd->add_option("--head", args->head, "Head index (default 0)");
  cmd->add_option("--block-rows", args->block_rows, "B_r: queries per block (default 2)")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--block-cols", args->block_cols, "B_c: keys per block (default 2)")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--sram", args->sram, "On-chip memory M in elements, for the paper's block sizes (default 1024)")
      ->check(CLI::Range(1LL, 1LL << 40));
  cmd->add_option("--tile", args->tile, "Only tile I,J (query block I, key block J)");
  cmd->add_option("--explain", args->explain, "Explain one cell: STAGE ROW COL (e.g. flash_p 0 1; with --tile I,J)")
      ->expected(3);
  cmd->add_flag("--json", args->json, "Print JSON (format \"attnviz-flash\"); −∞ is written as null");
  cmd->callback([args, &action] { action = [args] { return run_flash(*args); }; });
}

}  // namespace attn::cli
