// The published scenario file format ("attnviz-scenario", versions 1 and 2) and the
// trace JSON format ("attnviz-trace", version 1). Kept out of attn_core so the
// core stays Eigen-only; both the CLI and the app load files through here.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/scenario/scenario.hpp"
#include "attn/compute/trace.hpp"

namespace attn::io {

// Any problem with a file: the message names the field and the problem,
// e.g. "x[2]: row has 3 numbers, expected 4 like row 0".
struct FormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A scenario plus the parts of the file the core does not use.
struct ScenarioFile {
  Scenario scenario;
  std::string title;        // optional "title"
  std::string description;  // optional "description"
  // Everything under the app's own key ("attnviz": view state, lesson
  // steps); kept verbatim so saving never drops it.
  nlohmann::json app = nlohmann::json::object();
  // Problems that do not stop loading, e.g. an unknown top-level key (a typo
  // such as "maks" would otherwise pass silently). Not saved.
  std::vector<std::string> warnings;
};

// Parses and fully validates (shapes included, via attn::validate).
// Throws FormatError.
ScenarioFile parse_scenario(const std::string& text, const Limits& limits = {});

// Version 2 added RoPE, shared key/value heads (n_kv_heads), the sliding
// window and strided masks, and W_O's bias (output_bias); a scenario without them is written as version 1,
// so files older builds read stay readable by them.
bool uses_version_2(const Scenario& s);
ScenarioFile load_scenario(const std::string& path, const Limits& limits = {});

nlohmann::json scenario_to_json(const ScenarioFile& file);
// Writes to a temporary file then renames, so a failed save never destroys
// the previous file. Throws FormatError with the OS reason on failure.
void save_scenario(const std::string& path, const ScenarioFile& file);

// {"format":"attnviz-trace","version":1,"stages":[{"id","head","rows","cols","data"}...]}
// -inf is written as null; heads that do not apply are null.
nlohmann::json trace_to_json(const Trace& trace);

}  // namespace attn::io
