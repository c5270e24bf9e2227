// The PyTorch fixtures of "why a head attends" (tests/fixtures/why/*.json,
// made by tests/fixtures/make_why_fixtures.py and make_lens_fixtures.py), read
// whole: the lens, source split, logit attribution and patching tests.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

inline nlohmann::json why_fixture(const std::string& name) {
  std::ifstream in(std::string(ATTNVIZ_FIXTURES_DIR) + "/why/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}
