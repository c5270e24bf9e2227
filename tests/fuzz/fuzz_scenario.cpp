// libFuzzer target for the scenario format: parse -> validate -> compute ->
// explain -> save -> reload, asserting the round trip. Any input must either
// be refused with a FormatError / ComputeError or survive every step; a
// crash, a sanitizer report or a failed assertion is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "attn/explain/explain.hpp"
#include "attn/io/scenario_file.hpp"

namespace {

// Small limits keep each input fast: the fuzzer is after logic, not size.
attn::Limits fuzz_limits() {
  attn::Limits l;
  l.max_tokens = 48;
  l.max_width = 48;
  l.max_heads = 6;
  l.max_trace_bytes = 64 << 20;
  return l;
}

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_scenario: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  attn::io::ScenarioFile file;
  try {
    file = attn::io::parse_scenario(text, fuzz_limits());
  } catch (const attn::io::FormatError&) {
    return 0;  // refused with a message: fine
  }
  attn::Trace trace;
  try {
    trace = attn::compute_trace(file.scenario, fuzz_limits());
  } catch (const attn::ComputeError&) {
    return 0;
  }
  // Explain the corners of every stage: no throw, no NaN in the value.
  for (const attn::Stage& s : trace.stages) {
    const int rows = static_cast<int>(s.value.rows()), cols = static_cast<int>(s.value.cols());
    for (const auto& [r, c] : {std::pair<int, int>{0, 0}, {rows - 1, cols - 1}}) {
      const attn::Explanation e = attn::explain(trace, file.scenario, s.ref(), r, c);
      require(!std::isnan(e.value), "an explanation's value is NaN");
      require(e.value == s.value(r, c) || (std::isinf(e.value) && std::isinf(s.value(r, c))),
              "an explanation disagrees with its cell");
    }
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < rows; ++r)
        require(!std::isnan(s.value(r, c)) && s.value(r, c) != INFINITY, "a trace holds NaN or +inf");
  }
  // Save and reload: the same scenario, exactly.
  const std::string saved = attn::io::scenario_to_json(file).dump();
  attn::io::ScenarioFile again = attn::io::parse_scenario(saved, fuzz_limits());
  require(attn::scenario_difference(file.scenario, again.scenario).empty(), "save and reload changed the scenario");
  require(again.title == file.title && again.description == file.description, "save and reload changed the text");
  return 0;
}
