// A long bad argument or value is quoted in part: the one line on stderr
// stays short and still names the option or field. A 60 KB mask string used
// to give a 60 KB line.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_attn.hpp"

using attn::cli::test::run_attn;

namespace {

const std::string kSmallScenario = std::string(ATTN_CLI_DATA_DIR) + "/small.json";
const std::string kLong(60000, 'z');

void check_one_short_line(const attn::cli::test::RunResult& r, const std::string& names) {
  CAPTURE(r.err.substr(0, 400));
  CHECK(r.status == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.size() < 300);
  CHECK(r.err.find(names) != std::string::npos);
  CHECK(r.err.find("60,000 characters") != std::string::npos);
}

}  // namespace

TEST_CASE("long arguments: an unknown 60,000-character stage or output name gives one short line") {
  check_one_short_line(run_attn({"explain", kSmallScenario, "--stage", kLong, "--row", "0", "--col", "0"}), "--stage: unknown stage");
  check_one_short_line(run_attn({"export", kSmallScenario, "--stage", "x", "-o", kLong}),
                       "-o: cannot tell the format");
  // A long name keeps its ending, which is what the message is about; the
  // folders it is in are left out (a long build path hid ".xlsx" once).
  const attn::cli::test::RunResult r = run_attn({"export", kSmallScenario, "--stage", "x", "-o", "/" + std::string(300, 'd') + "/" + kLong + ".xlsx"});
  CAPTURE(r.err.substr(0, 400));
  CHECK(r.status == 2);
  CHECK(r.err.size() < 300);
  CHECK(r.err.find(".xlsx\" (60,005 characters)") != std::string::npos);
  CHECK(r.err.find("ddd") == std::string::npos);
}

TEST_CASE("long arguments: a scenario with a 60,000-character mask gives one short line naming the field") {
  const std::string path = std::string(ATTN_CLI_TEST_TMP) + "/long_mask.json";
  std::filesystem::create_directories(ATTN_CLI_TEST_TMP);
  std::ofstream(path) << R"({"format": "attnviz-scenario", "version": 1, "x": [[1, 2]], "mask": ")" << kLong << "\"}";
  check_one_short_line(run_attn({"check", path}), "mask: unknown mask kind");
}
