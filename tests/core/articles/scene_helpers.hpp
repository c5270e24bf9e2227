// Shared helpers for the per-article scenario tests: load a scene from
// assets/scenarios by name and compute it, fetch stages, sum rows/columns
// and find the strongest key of a query.
#pragma once

#include <string>

#include "attn/attn.hpp"
#include "attn/io/scenario_file.hpp"

namespace scene {

struct Loaded {
  attn::io::ScenarioFile file;
  attn::Trace trace;
  const attn::Scenario& scenario() const { return file.scenario; }
  // Throws std::out_of_range naming the stage when it is absent.
  attn::Mat at(attn::StageKind id, int head = -1) const;
  bool has(attn::StageKind id, int head = -1) const { return trace.find(id, head) != nullptr; }
  int token_index(const std::string& label) const;          // in tokens, -1 if absent
  int context_index(const std::string& label) const;        // in context_tokens (or tokens)
};

Loaded load(const std::string& name);  // "default" -> assets/scenarios/default.json

int argmax_in_row(const attn::Mat& m, int row);

}  // namespace scene
