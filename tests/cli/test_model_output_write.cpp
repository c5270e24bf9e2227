// `attn model attention|scene -o` reports a failed write and keeps the old
// file: `-o /dev/full` used to exit 0 with nothing written, and attention
// truncated its output in place before writing it. A regular file is written
// beside the target and renamed over it; a special file (/dev/full,
// /dev/stdout) is written directly, its errors checked all the same.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_attn.hpp"
#include "test_files.hpp"

using attn::cli::test::file_bytes;
using attn::cli::test::hf_model_dir;
using attn::cli::test::run_attn;
using attn::cli::test::run_program;

namespace {

namespace fs = std::filesystem;

const std::string kIds = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16";  // an output of several kB

// A fresh folder holding only "out.json" with the text "old".
fs::path folder_with_old_output(const std::string& name) {
  const fs::path dir = fs::path(ATTN_CLI_TEST_TMP) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "out.json") << "old";
  return dir;
}

std::vector<std::string> command(const std::string& which, const std::string& out) {
  std::vector<std::string> args{"model", which, hf_model_dir("gpt2"), "--ids", kIds, "-o", out};
  if (which == "scene") args.insert(args.end(), {"--layer", "1"});
  return args;
}

}  // namespace

TEST_CASE("attn model -o /dev/full exits 2 with one line naming the output") {
  for (const char* which : {"attention", "scene"}) {
    CAPTURE(which);
    const auto r = run_attn(command(which, "/dev/full"));
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("-o: cannot write /dev/full") != std::string::npos);
  }
}

TEST_CASE("attn model attention: a write that fails midway leaves the old file and no temporary") {
  const fs::path dir = folder_with_old_output("attention-write-fails");
  // Files may grow to 1 block of 512 bytes; SIGXFSZ ignored, so the write fails with EFBIG.
  const auto r = run_program(ATTN_EXE, command("attention", (dir / "out.json").string()), "trap '' XFSZ; ulimit -f 1;");
  CHECK(r.status == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find("-o: cannot write " + (dir / "out.json").string()) != std::string::npos);
  CHECK(file_bytes((dir / "out.json").string()) == "old");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // no temporary left
}

TEST_CASE("attn model attention replaces an existing output whole, keeping its permissions") {
  const fs::path dir = folder_with_old_output("attention-replaces");
  fs::permissions(dir / "out.json", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  const auto r = run_attn(command("attention", (dir / "out.json").string()));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(nlohmann::json::parse(file_bytes((dir / "out.json").string()))["attentions"].size() == 2);
  CHECK(fs::status(dir / "out.json").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("attn model attention and scene -o /dev/stdout write through (it cannot be renamed over)") {
  const auto attention = run_attn(command("attention", "/dev/stdout"));
  INFO(attention.err);
  REQUIRE(attention.status == 0);
  CHECK(nlohmann::json::parse(attention.out)["ids"].size() == 16);
  const auto scene = run_attn(command("scene", "/dev/stdout"));
  INFO(scene.err);
  REQUIRE(scene.status == 0);
  CHECK(nlohmann::json::parse(scene.out)["format"] == "attnviz-scenario");
}
