// Choosing one stage from the command line (--stage ID [--head H]), shared
// by `attn explain` and `attn export`: a typo gets a message listing what is
// valid, and a per-head stage asks for --head when there are several heads.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "attn/compute/trace.hpp"

namespace attn::cli {

struct StageChoice {
  std::string stage;
  int head = -1;
  bool head_given = false;
};

// The stage named by --stage/--head; throws CliError saying what is valid.
const Stage& resolve_stage(const Trace& trace, const StageChoice& choice);

// CLI11 reads "0x1" and "1e0" as 1; an index is written in plain decimal.
extern const CLI::Validator kDecimal;
// kDecimal, 0 or more: for options whose -1 would otherwise read as "not
// given" (`attn decode --step -1` printed every step and exited 0).
extern const CLI::Validator kNonNegativeDecimal;

}  // namespace attn::cli
