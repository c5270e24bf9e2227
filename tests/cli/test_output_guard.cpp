// A command never writes over its own input: `attn export s.json -o s.json`
// used to replace the scenario with its trace and exit 0. Every command with
// an output option is tried with the output spelled as the input itself,
// through a symlink and through a hard link: each must exit 2 with one line
// and leave the input byte for byte as it was.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_attn.hpp"

using attn::cli::test::run_attn;

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder holding a copy of `source` as `name`, plus a symlink and a
// hard link to it.
struct Input {
  fs::path file, symlink, hard_link;
};
Input input_copy(const std::string& folder, const std::string& source, const std::string& name) {
  const fs::path dir = fs::path(ATTN_CLI_TEST_TMP) / folder;
  fs::remove_all(dir);
  fs::create_directories(dir);
  Input in{dir / name, dir / ("link-" + name), dir / ("hard-" + name)};
  fs::copy_file(source, in.file);
  fs::create_symlink(name, in.symlink);
  fs::create_hard_link(in.file, in.hard_link);
  return in;
}

// Runs `args` with "-o OUT" for each spelling of the input; none may write.
void check_refused(const Input& in, std::vector<std::string> args) {
  const std::string before = slurp(in.file);
  for (const fs::path& out : {in.file, in.symlink, in.hard_link}) {
    CAPTURE(out);
    std::vector<std::string> a = args;
    a.insert(a.end(), {"-o", out.string()});
    const auto r = run_attn(a);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("-o: ") != std::string::npos);
    CHECK(r.err.find("is the input file") != std::string::npos);
    CHECK(slurp(in.file) == before);
    CHECK(fs::is_symlink(in.symlink));
    CHECK(fs::hard_link_count(in.file) == 2);
  }
}

}  // namespace

TEST_CASE("output guard: export refuses to write over its scenario (same name, symlink, hard link)") {
  const Input in = input_copy("guard-export", std::string(ATTN_CLI_DATA_DIR) + "/small.json", "s.json");
  check_refused(in, {"export", in.file.string(), "--stage", "weights", "--head", "0"});
  // Also when the input is named through the link and the output plainly.
  const auto r = run_attn({"export", in.symlink.string(), "--stage", "x", "-o", in.file.string()});
  CHECK(r.status == 2);
  CHECK(r.err.find("is the input file") != std::string::npos);
}

TEST_CASE("output guard: train --scenario refuses to write over its model (same name, symlink, hard link)") {
  const std::string model = std::string(ATTN_CLI_DATA_DIR) + "/../../data/malformed_models/valid_small.json";
  const Input in = input_copy("guard-train", model, "m.json");
  check_refused(in, {"train", "--scenario", in.file.string(), "--input", "A"});
}

TEST_CASE("output guard: a different output file is still written") {
  const Input in = input_copy("guard-other", std::string(ATTN_CLI_DATA_DIR) + "/small.json", "s.json");
  const fs::path out = in.file.parent_path() / "trace.json";
  const auto r = run_attn({"export", in.file.string(), "--stage", "x", "-o", out.string()});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(fs::file_size(out) > 0);
}
