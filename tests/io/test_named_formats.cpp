// Every kind of file names itself when it is not what it should be: a
// lesson or a model that is a folder, empty, binary or nested too deep used
// to be called "a scenario" ("is a directory, not a scenario file",
// "expected a JSON scenario object").
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "attn/io/lesson_file.hpp"
#include "attn/io/model_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "temp_files.hpp"

namespace {

namespace fs = std::filesystem;

struct Kind {
  const char* noun;  // "scenario", "lesson", "model"
  std::function<void(const std::string&)> load;
};

const Kind kKinds[] = {
    {"scenario", [](const std::string& p) { (void)attn::io::load_scenario(p); }},
    {"lesson", [](const std::string& p) { (void)attn::io::load_lesson(p); }},
    {"model", [](const std::string& p) { (void)attn::io::load_model(p); }},
};

std::string load_error(const Kind& kind, const fs::path& path) {
  try {
    kind.load(path.string());
  } catch (const attn::io::FormatError& e) {
    return e.what();
  }
  return "<no error>";
}

fs::path write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

// The message names `noun` and no other kind of file.
void check_names_only(const std::string& message, const std::string& noun) {
  CAPTURE(message);
  CHECK(message.find(noun) != std::string::npos);
  for (const char* other : {"scenario", "lesson", "model"})
    if (other != noun) CHECK(message.find(other) == std::string::npos);
}

}  // namespace

TEST_CASE("a lesson, model or scenario file that is not one names its own kind") {
  int folders = 0;  // folders are numbered: a path naming a kind would pass the checks below
  for (const Kind& kind : kKinds) {
    CAPTURE(kind.noun);
    const fs::path dir = attn::io::test::fresh_dir("named-" + std::to_string(folders++));
    const fs::path folder = dir / "folder.json";
    fs::create_directories(folder);
    CHECK(load_error(kind, folder) == folder.string() + ": is a directory, not a " + kind.noun + " file");
    const fs::path empty = write(dir / "empty.json", " \n");
    CHECK(load_error(kind, empty) == empty.string() + ": file is empty; expected a JSON " + kind.noun + " object");
    const fs::path nul = write(dir / "nul.json", std::string("{\"a\": 1,\0}", 10));
    check_names_only(load_error(kind, nul), kind.noun);
    const fs::path latin1 = write(dir / "latin1.json", "{\"title\": \"caf\xE9\"}");
    check_names_only(load_error(kind, latin1), kind.noun);
  }
}

TEST_CASE("nesting too deep is refused without calling the file a scenario unless it is one") {
  const std::string deep(40, '[');
  int folders = 0;
  for (const Kind& kind : kKinds) {
    CAPTURE(kind.noun);
    const fs::path p = write(attn::io::test::fresh_dir("deep-" + std::to_string(folders++)) / "deep.json", deep);
    const std::string message = load_error(kind, p);
    CHECK(message.find("nesting is deeper than 32 levels") != std::string::npos);
    if (std::string(kind.noun) != "scenario") CHECK(message.find("scenario") == std::string::npos);
  }
}
