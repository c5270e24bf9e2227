// End to end: what `attn trace FILE` prints, for every shipped scenario,
// matches the independent reference on every stage. This closes the loop
// through the JSON writer (null for −∞, row-major data, head numbering), not
// just the library. Tolerance 1e-9 on |got - want| / max(1, |want|).
#include <doctest/doctest.h>

#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "compare.hpp"
#include "fixture_files.hpp"
#include "reference.hpp"

namespace {

constexpr double kCliTraceTol = 1e-9;

std::string run_trace(const std::string& path, int& status) {
  const std::string cmd = std::string("\"") + ATTN_EXE + "\" trace \"" + path + "\"";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  if (!pipe) return out;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  status = pclose(pipe);
  return out;
}

attn::Mat matrix_of(const nlohmann::json& stage) {
  const int rows = stage.at("rows").get<int>(), cols = stage.at("cols").get<int>();
  attn::Mat m(rows, cols);
  const auto& data = stage.at("data");
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const auto& v = data.at(static_cast<size_t>(r)).at(static_cast<size_t>(c));
      m(r, c) = v.is_null() ? -std::numeric_limits<double>::infinity() : v.get<double>();
    }
  return m;
}

}  // namespace

TEST_CASE("attn trace output matches the reference for every scenario") {
  const auto files = ref::json_files_in(ATTNVIZ_ASSETS_DIR "/scenarios");
  REQUIRE(files.size() >= 20);
  for (const auto& path : files) {
    INFO(path);
    int status = -1;
    const std::string out = run_trace(path, status);
    REQUIRE(status == 0);
    const nlohmann::json trace = nlohmann::json::parse(out);
    CHECK(trace.at("format") == "attnviz-trace");
    CHECK(trace.at("version") == 1);
    const ref::RefTrace want = ref::reference_trace(attn::io::load_scenario(path).scenario);
    CHECK(trace.at("stages").size() == want.stages.size());
    double worst_seen = 0;
    for (const auto& st : trace.at("stages")) {
      const std::string id = st.at("id").get<std::string>();
      const int head = st.at("head").is_null() ? -1 : st.at("head").get<int>();
      const ref::RefStage* w = want.find(id, head);
      if (!w) {
        FAIL_CHECK("stage " << id << " head " << head << " is not in the reference");
        continue;
      }
      const ref::Worst worst = ref::worst_element(matrix_of(st), w->value);
      CHECK_MESSAGE(ref::within(worst, kCliTraceTol), ref::describe(id + " head " + std::to_string(head), worst));
      worst_seen = std::max(worst_seen, worst.error);
    }
    MESSAGE(ref::stem_of(path) << ": largest element error " << worst_seen);
  }
}
