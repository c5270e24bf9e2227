// What `attn decode` prints about each KV-cache step and about the whole
// run, as text for people and as JSON for scripts (format "attnviz-decode").
// Kept apart from the command so the two forms stay side by side.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "attn/decode/decode.hpp"

namespace attn::cli {

// How far the decoded rows are from the full trace's (max |difference|).
struct DecodeCheck {
  int steps = 0;
  double head_output = 0;  // over every head's output row
  double output = 0;       // over the output rows
  void see(const DecodeStep& step, const Trace& full);
};

// One step: what was computed, what was reused, the rows and the counters.
// `head` >= 0 shows that head only (and its key/value head).
void print_step(std::ostream& os, const DecodeStep& step, int head);
nlohmann::json step_json(const DecodeStep& step, int head);

// The totals after the last step and the check against the full trace.
void print_summary(std::ostream& os, const DecodeStep& last, const DecodeCheck& check);
nlohmann::json summary_json(const DecodeStep& last, const DecodeCheck& check);

}  // namespace attn::cli
