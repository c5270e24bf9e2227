// Every scenario shipped in assets/scenarios must work end to end through
// the CLI: `check` says ok, `trace` exits 0 with JSON that parses (nulls only
// in masked cells), and `explain` agrees with the trace. The directory is
// listed when the test runs, so newly added scenarios are covered too.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/text/format_number.hpp"
#include "run_attn.hpp"

namespace fs = std::filesystem;
using attn::cli::test::run_attn;
using nlohmann::json;

namespace {

std::vector<std::string> asset_scenarios() {
  std::vector<std::string> files;
  const fs::path dir = fs::path(ATTNVIZ_ASSETS_DIR) / "scenarios";
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Full structural check of a parsed trace.
void check_trace(const json& t) {
  CHECK(t["format"] == "attnviz-trace");
  CHECK(t["version"] == 1);
  REQUIRE(t["stages"].is_array());
  REQUIRE_FALSE(t["stages"].empty());
  for (const json& st : t["stages"]) {
    CAPTURE(st["id"].dump());
    CAPTURE(st["head"].dump());
    const auto rows = st["rows"].get<std::size_t>();
    const auto cols = st["cols"].get<std::size_t>();
    REQUIRE(st["data"].size() == rows);
    const bool has_blocked = st.contains("blocked");
    for (std::size_t r = 0; r < rows; ++r) {
      REQUIRE(st["data"][r].size() == cols);
      for (std::size_t c = 0; c < cols; ++c) {
        const json& v = st["data"][r][c];
        if (v.is_null()) {
          // JSON has no -inf: null is only allowed for a masked logit.
          REQUIRE(has_blocked);
          CHECK(st["blocked"][r][c] == 1);
        } else {
          REQUIRE(v.is_number());
        }
      }
    }
  }
}

const json* find_stage(const json& t, const std::string& id, int head) {
  for (const json& st : t["stages"]) {
    if (st["id"] == id && st["head"] == head) return &st;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("there are shipped scenarios to test") {
  CHECK_MESSAGE(!asset_scenarios().empty(), "no *.json in " ATTNVIZ_ASSETS_DIR "/scenarios");
}

TEST_CASE("attn check accepts every shipped scenario") {
  for (const std::string& file : asset_scenarios()) {
    CAPTURE(file);
    const auto r = run_attn({"check", file});
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(r.out.rfind("ok: ", 0) == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  }
}

TEST_CASE("attn trace prints parseable JSON for every shipped scenario") {
  for (const std::string& file : asset_scenarios()) {
    CAPTURE(file);
    const auto r = run_attn({"trace", file});
    REQUIRE(r.status == 0);
    CHECK(r.err == "");
    REQUIRE_FALSE(r.out.empty());
    if (r.out.size() > (std::size_t{64} << 20)) {
      // Big scenarios: validate the syntax without building a huge DOM.
      CHECK(json::accept(r.out));
      CHECK(r.out.rfind("{\"dims\":", 0) == 0);
      continue;
    }
    const json t = json::parse(r.out);
    check_trace(t);
  }
}

TEST_CASE("attn explain agrees with attn trace on every small shipped scenario") {
  for (const std::string& file : asset_scenarios()) {
    if (fs::file_size(file) > 100000) continue;  // the trace of large ones is covered above
    CAPTURE(file);
    const auto tr = run_attn({"trace", file});
    REQUIRE(tr.status == 0);
    const json t = json::parse(tr.out);
    const json* w = find_stage(t, "weights", 0);
    REQUIRE(w != nullptr);
    const int last = w->at("rows").get<int>() - 1;
    const auto r = run_attn({"explain", file, "--stage", "weights", "--head", "0", "--row",
                             std::to_string(last), "--col", "0"});
    REQUIRE(r.status == 0);
    CHECK(r.err == "");
    const double value = w->at("data")[static_cast<std::size_t>(last)][0].get<double>();
    const std::string first_line = r.out.substr(0, r.out.find('\n'));
    CHECK(first_line == "weights (head 0) [" + std::to_string(last) + ",0] = " + attn::format_number(value, 6));
  }
}
