// `attn model attention`'s own formats and selections: npz and safetensors
// to a full disk or a pipe, a refused run that leaves the old file whole, and
// formats, types and ranges that make no sense, each one line. (Writing over
// the model's files and failed writes in general: test_model_output_guard.cpp
// and test_model_output_write.cpp.)
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

void refused(const std::vector<std::string>& args, const std::string& message) {
  const auto r = run_attn(args);
  INFO("attn stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find(message) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("model outputs: a full disk is an error, and a failed run leaves the old file whole") {
  if (fs::exists("/dev/full")) {
    // JSON to /dev/full: test_model_output_write.cpp.
    for (const char* format : {"safetensors"})
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
