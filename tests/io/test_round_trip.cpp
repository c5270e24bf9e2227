// save_scenario / load_scenario round trips: every field, option and the
// app's own data must come back exactly (parse(save(s)) == s), numbers with
// full precision, and saving must replace files atomically.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "scenario_samples.hpp"
#include "temp_files.hpp"

namespace fs = std::filesystem;
using attn::io::ScenarioFile;
using attn::scenario_difference;
using nlohmann::json;

namespace {

using attn::io::test::fresh_dir;

// Every optional feature switched on, with values that do not survive
// printing with too few digits.
ScenarioFile everything_scenario() {
  json doc = attn::io::test::self_attention_sample();
  doc["title"] = "Round trip ✓";
  doc["description"] = "line one\nline two with \"quotes\"";
  doc["tokens"] = json::array({"naïve", "🙂", ""});
  doc["mask"] = json::parse("[[0,1,1],[0,0,1],[1,0,0]]");
  doc["key_padding"] = json::parse("[false, false, true]");
  doc["mask_mode"] = "after_softmax";
  doc["scale"] = 0.1 + 0.2;
  doc["score"] = "additive";
  doc["additive"] = json::parse(R"([
      {"w": [[1,0],[0,1],[1,1]], "u": [[0,1],[1,0],[1,1]], "v": [1, -1]},
      {"w": [[1,0],[0,1],[0,0]], "u": [[1,0],[0,1],[0,0]], "v": [0.5, 2]}])");
  doc["positional"] = "sinusoidal";
  doc["softmax_axis"] = "queries";
  doc["w_o"] = json::parse("[[1,0],[0,1],[1,1],[0,0],[2,0],[0,2]]");
  doc["attnviz"] = {{"view", {{"stage", "weights"}, {"head", 1}, {"zoom", 1.25}}},
                    {"lesson", json::array({{{"say", "look at row 2"}}, nullptr, true})}};
  ScenarioFile f = attn::io::parse_scenario(doc.dump());
  // Awkward doubles: shortest forms of these need all 17 significant digits.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> dist(-10.0, 10.0);
  for (Eigen::Index r = 0; r < f.scenario.x.rows(); ++r)
    for (Eigen::Index c = 0; c < f.scenario.x.cols(); ++c) f.scenario.x(r, c) = dist(rng) / 3.0;
  f.scenario.heads[1].w_k(0, 0) = 1e-300;
  f.scenario.heads[1].w_k(1, 1) = -123456789.123456789;
  f.scenario.heads[0].w_v(2, 2) = std::nextafter(1.0, 2.0);
  return f;
}

void check_same(const ScenarioFile& a, const ScenarioFile& b) {
  CHECK(scenario_difference(a.scenario, b.scenario) == "");
  CHECK(a.title == b.title);
  CHECK(a.description == b.description);
  CHECK(a.app == b.app);
}

}  // namespace

TEST_CASE("scenario_to_json then parse gives the same scenario") {
  const ScenarioFile original = everything_scenario();
  const ScenarioFile back = attn::io::parse_scenario(attn::io::scenario_to_json(original).dump());
  check_same(original, back);
  // And the comparison is real: a one-ulp change is noticed.
  ScenarioFile changed = back;
  changed.scenario.x(1, 1) = std::nextafter(changed.scenario.x(1, 1), 100.0);
  CHECK(scenario_difference(original.scenario, changed.scenario) == "x differs");
}

TEST_CASE("save then load gives the same scenario, title, description and app data") {
  const fs::path dir = fresh_dir("save_load");
  const std::string path = (dir / "everything.json").string();
  const ScenarioFile original = everything_scenario();
  attn::io::save_scenario(path, original);
  check_same(original, attn::io::load_scenario(path));

  const ScenarioFile cross = attn::io::parse_scenario(attn::io::test::cross_attention_sample().dump());
  attn::io::save_scenario(path, cross);  // overwrites the previous file
  check_same(cross, attn::io::load_scenario(path));
}

TEST_CASE("defaults and the minimal scenario round-trip too") {
  const ScenarioFile minimal =
      attn::io::parse_scenario(R"({"format":"attnviz-scenario","version":1,"x":[[0.5]]})");
  const json written = attn::io::scenario_to_json(minimal);
  CHECK(written["format"] == "attnviz-scenario");
  CHECK(written["version"] == 1);
  CHECK_FALSE(written.contains("heads"));
  CHECK_FALSE(written.contains("attnviz"));
  check_same(minimal, attn::io::parse_scenario(written.dump()));
}

TEST_CASE("saving writes rows on one line and leaves no temporary files") {
  const fs::path dir = fresh_dir("atomic");
  const std::string path = (dir / "s.json").string();
  attn::io::save_scenario(path, everything_scenario());
  attn::io::save_scenario(path, everything_scenario());
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    ++files;
    CHECK(entry.path().filename() == "s.json");
  }
  CHECK(files == 1);
  std::ifstream in(path);
  std::string line;
  bool found_row = false;
  while (std::getline(in, line)) found_row = found_row || line.find("[0, 1, 1]") != std::string::npos;
  CHECK(found_row);  // the custom mask's first row, on one line
}

TEST_CASE("a failed save reports the path and keeps the old file") {
  const fs::path dir = fresh_dir("failed_save");
  const std::string bad = (dir / "no-such-dir" / "s.json").string();
  try {
    attn::io::save_scenario(bad, everything_scenario());
    FAIL("expected a FormatError");
  } catch (const attn::io::FormatError& e) {
    CHECK(std::string(e.what()).rfind("cannot write " + bad + ": ", 0) == 0);
  }
  // Non-finite numbers cannot be written as JSON: refused, old file intact.
  const std::string path = (dir / "keep.json").string();
  const ScenarioFile good = everything_scenario();
  attn::io::save_scenario(path, good);
  ScenarioFile broken = good;
  broken.scenario.heads[0].w_q(1, 2) = std::nan("");
  try {
    attn::io::save_scenario(path, broken);
    FAIL("expected a FormatError");
  } catch (const attn::io::FormatError& e) {
    CHECK(std::string(e.what()).rfind("heads[0].w_q[1][2]: not finite", 0) == 0);
  }
  check_same(good, attn::io::load_scenario(path));
}

TEST_CASE("rope.frequencies (a checkpoint's rescaled RoPE) round-trip exactly and are checked") {
  json doc = attn::io::test::self_attention_sample();
  // d_k = 3 in the sample: two thirds of it rotate, one pair.
  doc["rope"] = {{"base", 500000}, {"fraction", 0.67}, {"frequencies", {1.0 / 3.0}}};
  doc["score"] = "dot";
  ScenarioFile f;
  try {
    f = attn::io::parse_scenario(doc.dump());
  } catch (const attn::io::FormatError& e) {
    FAIL(std::string(e.what()));
  }
  const ScenarioFile back = attn::io::parse_scenario(attn::io::scenario_to_json(f).dump());
  check_same(f, back);
  CHECK(back.scenario.rope.frequencies == std::vector<double>{1.0 / 3.0});
  doc["rope"]["frequencies"] = {-2.0};
  CHECK_THROWS_WITH_AS(attn::io::parse_scenario(doc.dump()), doctest::Contains("rope.frequencies[0]: must be a positive number"),
                       attn::io::FormatError);
  doc["rope"]["frequencies"] = {1.0, 2.0};
  CHECK_THROWS_WITH_AS(attn::io::parse_scenario(doc.dump()), doctest::Contains("rope.frequencies: 2 given, but 2 rotated dimensions make 1 pair"),
                       attn::io::FormatError);
}
