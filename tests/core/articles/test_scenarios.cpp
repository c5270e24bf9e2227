// Every scenario file shipped in assets/scenarios (found at test time, so a
// new file is covered automatically) must parse, compute without NaN and
// match the independent reference on every stage. Tolerance 1e-9 on
// |got - want| / max(1, |want|).
#include <doctest/doctest.h>

#include <string>

#include "attn/attn.hpp"
#include "attn/io/scenario_file.hpp"
#include "compare.hpp"
#include "fixture_files.hpp"
#include "reference.hpp"

namespace {

constexpr double kScenarioTol = 1e-9;
const std::string kDir = ATTNVIZ_ASSETS_DIR "/scenarios";

}  // namespace

TEST_CASE("scenarios: the directory holds the article scenes") {
  const auto files = ref::json_files_in(kDir);
  CHECK(files.size() >= 20);
  for (const char* name : {"default", "rgbd_pixels", "multihead_2x4", "masking_causal", "cross_attention",
                           "large_1024x8"}) {
    bool found = false;
    for (const auto& f : files) found = found || ref::stem_of(f) == name;
    CHECK_MESSAGE(found, name << ".json is missing");
  }
}

TEST_CASE("scenarios: every file parses, has no NaN and matches the reference on every stage") {
  for (const auto& path : ref::json_files_in(kDir)) {
    INFO(path);
    attn::io::ScenarioFile file;
    try {
      file = attn::io::load_scenario(path);
    } catch (const std::exception& e) {
      FAIL_CHECK("does not load: " << e.what());
      continue;
    }
    CHECK_FALSE(file.title.empty());
    CHECK_FALSE(file.description.empty());
    const attn::Trace t = attn::compute_trace(file.scenario);
    CHECK_FALSE(ref::has_nan(t));
    double worst = 0;
    const auto problems = ref::compare_traces(t, ref::reference_trace(file.scenario), kScenarioTol, &worst);
    for (const auto& p : problems) FAIL_CHECK(p);
    CHECK(problems.empty());
    MESSAGE(ref::stem_of(path) << ": largest element error " << worst);
  }
}
