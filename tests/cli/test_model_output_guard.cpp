// `attn model attention|scene -o` never writes over a file of the model it
// reads: `-o DIR/config.json` used to overwrite the model's config and exit
// 0, and the weights, the shard index, a shard and the tokenizer files were
// as exposed. Each is tried by its own name, through a symlink and through a
// hard link: exit 2, one line, and the file byte for byte as it was.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_attn.hpp"
#include "test_files.hpp"

using attn::cli::test::file_bytes;
using attn::cli::test::hf_model_dir;
using attn::cli::test::run_attn;

namespace {

namespace fs = std::filesystem;

// A scratch copy of tests/data/hf/<model>, so a failure cannot harm the
// fixture; `folder` is the test's own (CTest runs the cases in parallel).
fs::path model_copy(const std::string& model, const std::string& folder) {
  const fs::path dir = fs::path(ATTN_CLI_TEST_TMP) / folder;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  fs::copy(hf_model_dir(model), dir, fs::copy_options::recursive);
  return dir;
}

// `command` on `dir` with -o naming `name` itself, a symlink to it and a hard link to it.
void check_refused(const std::string& command, const fs::path& dir, const std::string& name) {
  const fs::path file = dir / name, symlink = dir / ("link-" + name), hard = dir / ("hard-" + name);
  fs::remove(symlink);
  fs::remove(hard);
  fs::create_symlink(name, symlink);
  fs::create_hard_link(file, hard);
  const std::string before = file_bytes(file.string());
  for (const fs::path& out : {file, symlink, hard}) {
    CAPTURE(command);
    CAPTURE(out);
    std::vector<std::string> args{"model", command, dir.string(), "--ids", "1,2,3", "-o", out.string()};
    if (command == "scene") args.insert(args.end(), {"--layer", "0"});
    const auto r = run_attn(args);
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("-o: ") != std::string::npos);
    CHECK(r.err.find("is the input file") != std::string::npos);
    CHECK(file_bytes(file.string()) == before);
    CHECK(fs::is_symlink(symlink));
  }
  fs::remove(symlink);
  fs::remove(hard);
}

}  // namespace

TEST_CASE("attn model attention and scene refuse -o onto the config, weights and tokenizer") {
  const fs::path dir = model_copy("gpt2", "guard-model-files");
  for (const char* command : {"attention", "scene"})
    for (const char* name : {"config.json", "model.safetensors", "tokenizer.json"}) check_refused(command, dir, name);
}

TEST_CASE("attn model refuses -o onto the shard index and each shard") {
  const fs::path dir = model_copy("gpt2_sharded", "guard-model-shards");
  for (const char* name :
       {"model.safetensors.index.json", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"})
    check_refused("attention", dir, name);
}

TEST_CASE("attn model refuses -o onto the older tokenizer files (vocab.json, merges.txt, vocab.txt)") {
  const fs::path dir = model_copy("gpt2", "guard-model-tokenizer-files");
  // tokenizer.json is read first, but the others are the model's files all the same.
  for (const char* name : {"vocab.json", "merges.txt", "vocab.txt", "tokenizer_config.json"}) {
    std::ofstream(dir / name) << "{}\n";
    check_refused("attention", dir, name);
  }
}

TEST_CASE("attn model still writes an output beside the model's files") {
  const fs::path dir = model_copy("gpt2", "guard-model-beside");
  const auto r = run_attn({"model", "attention", dir.string(), "--ids", "1,2,3", "-o", (dir / "attention.json").string()});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(fs::file_size(dir / "attention.json") > 0);
}
