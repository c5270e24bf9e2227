// Where `attn model attention` and `attn model scene` write: never over a
// file the model folder is read from (under any name), never a half file,
// never exit 0 when the disk refused the bytes; and their selections and
// formats refused with one line when they make no sense.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run_attn.hpp"

using attn::cli::test::run_attn;
namespace fs = std::filesystem;

namespace {

const std::string kGpt2 = std::string(ATTN_CLI_DATA_DIR) + "/../../data/hf/gpt2";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A copy of the tiny GPT-2 folder, so tests may try to write over its files.
fs::path model_copy(const std::string& name) {
  const fs::path dir = fs::path(ATTN_CLI_TEST_TMP) / ("outputs_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  fs::copy(kGpt2, dir, fs::copy_options::recursive);
  return dir;
}

void refused(const std::vector<std::string>& args, const std::string& message) {
  const auto r = run_attn(args);
  INFO("attn stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find(message) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("model outputs: no file the folder is read from is written over, under any name") {
  const fs::path dir = model_copy("guard");
  const std::string model = dir.string();
  const std::string config = slurp(dir / "config.json"), weights = slurp(dir / "model.safetensors");
  for (const char* name : {"config.json", "model.safetensors", "tokenizer.json"})
    refused({"model", "attention", model, "--ids", "1,2", "-o", (dir / name).string()}, "is the input file");
  fs::remove(dir.parent_path() / "outputs_guard_link.npz");
  fs::remove(dir.parent_path() / "outputs_guard_hard.json");
  fs::create_symlink(dir / "model.safetensors", dir.parent_path() / "outputs_guard_link.npz");
  refused({"model", "attention", model, "--ids", "1,2", "-o", (dir.parent_path() / "outputs_guard_link.npz").string()},
          "(under another name)");
  fs::create_hard_link(dir / "config.json", dir.parent_path() / "outputs_guard_hard.json");
  refused({"model", "attention", model, "--ids", "1,2", "-o", (dir.parent_path() / "outputs_guard_hard.json").string()},
          "is the input file");
  refused({"model", "scene", model, "--ids", "1,2", "--layer", "0", "-o", (dir / "tokenizer.json").string()},
          "is the input file");
  CHECK(slurp(dir / "config.json") == config);
  CHECK(slurp(dir / "model.safetensors") == weights);
}

TEST_CASE("model outputs: a full disk is an error, and a failed run leaves the old file whole") {
  if (fs::exists("/dev/full")) {
    for (const char* format : {"json", "safetensors"})
      refused({"model", "attention", kGpt2, "--ids", "1,2,3", "--format", format, "-o", "/dev/full"},
              "-o: cannot write /dev/full");
    refused({"model", "attention", kGpt2, "--ids", "1,2,3", "-o", "/dev/full", "--format", "npz"},
            "must go to a regular file");
  }
  const fs::path out = fs::path(ATTN_CLI_TEST_TMP) / "outputs_keep.json";
  fs::create_directories(out.parent_path());
  std::ofstream(out) << "the old file";
  refused({"model", "attention", kGpt2, "--ids", "1,2,3", "--layers", "7", "-o", out.string()},
          "--layers: 7 is out of range (the model has 2 layers, 0 to 1)");
  CHECK(slurp(out) == "the old file");
  // A good run replaces it whole, and leaves no temporary beside it.
  const auto r = run_attn({"model", "attention", kGpt2, "--ids", "1,2,3", "-o", out.string()});
  CHECK(r.status == 0);
  CHECK(slurp(out).rfind("{\"format\": \"attnviz-model-attention\"", 0) == 0);
  for (const auto& e : fs::directory_iterator(out.parent_path()))
    CHECK_MESSAGE(e.path().filename().string().rfind(".outputs_keep", 0) != 0, e.path());
}

TEST_CASE("model outputs: formats, types and selections that make no sense are named") {
  const std::string out = (fs::path(ATTN_CLI_TEST_TMP) / "outputs_bad.json").string();
  refused({"model", "attention", kGpt2, "--ids", "1,2", "--format", "hdf5", "-o", out}, "--format: \"hdf5\" is not json, npz or safetensors");
  refused({"model", "attention", kGpt2, "--ids", "1,2", "--dtype", "f16", "-o", out}, "--dtype: \"f16\" is not f32 or f64");
  refused({"model", "attention", kGpt2, "--ids", "1,2", "--heads", "2-1", "-o", out}, "--heads: \"2-1\" runs backwards");
  refused({"model", "attention", kGpt2, "--ids", "1,2", "--heads", "x", "-o", out}, "--heads: \"x\" is not a number");
  refused({"model", "attention", kGpt2, "--ids", "1,2", "-o", "-", "--format", "npz"}, "cannot go to standard output");
  refused({"model", "attention", std::string(ATTN_CLI_DATA_DIR) + "/../../data/hf/bert", "--ids", "1,2", "--logits", "-o", out},
          "--logits: BERT has no next-token head");
}
