// `attn model info` as a user meets a folder written by transformers 5, or
// one that is broken: what it reads is printed (RoPE's base from
// rope_parameters, a default it had to take), and what it cannot use exits
// 2 with one line naming the file and the key or tensor.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "run_attn.hpp"

using attn::cli::test::run_attn;
namespace fs = std::filesystem;

namespace {

const fs::path kHfFolders = fs::path(ATTN_CLI_DATA_DIR) / ".." / ".." / "data" / "hf";

fs::path refusal_copy(const std::string& model, const std::string& name) {
  const fs::path dir = fs::path(ATTN_CLI_TEST_TMP) / ("refusals_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  fs::copy(kHfFolders / model, dir, fs::copy_options::recursive);
  return dir;
}

void edit_copied_config(const fs::path& dir, const std::function<void(nlohmann::json&)>& change) {
  nlohmann::json c = nlohmann::json::parse(std::ifstream(dir / "config.json"));
  change(c);
  std::ofstream(dir / "config.json") << c.dump(2);
}

}  // namespace

TEST_CASE("model info: transformers 5's rope_parameters, and the defaults it took, are printed") {
  const auto r = run_attn({"model", "info", (kHfFolders / "llama_rope_parameters").string()});
  CHECK(r.status == 0);
  CHECK(r.out.find("RoPE, theta 500000;") != std::string::npos);
  const fs::path dir = refusal_copy("llama_rope_parameters", "no_eps");
  edit_copied_config(dir, [](nlohmann::json& c) { c.erase("rms_norm_eps"); });
  const auto noted = run_attn({"model", "info", dir.string()});
  CHECK(noted.status == 0);
  CHECK(noted.out.find("note:        rms_norm_eps is not given: 1e-06") != std::string::npos);
}

TEST_CASE("model info: a missing tensor, a refused key, a FIFO and a deep value each exit 2 with one line") {
  auto refused = [](const fs::path& dir, const std::string& message) {
    const auto r = run_attn({"model", "info", dir.string()});
    INFO("stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  };
  // The weights without one tensor: the config is fine, the folder is not.
  fs::path dir = refusal_copy("gpt2", "missing");
  {
    nlohmann::json c = nlohmann::json::parse(std::ifstream(dir / "config.json"));
    c["n_layer"] = 3;  // a layer the file does not hold
    std::ofstream(dir / "config.json") << c.dump();
  }
  refused(dir, "no tensor \"h.2.");
  dir = refusal_copy("llama_rope_parameters", "longrope");
  edit_copied_config(dir, [](nlohmann::json& c) { c["rope_parameters"]["rope_type"] = "longrope"; });
  refused(dir, "config.json: rope_parameters type \"longrope\" is not implemented");
  dir = refusal_copy("gpt2", "scaled_by_layer_typo");
  edit_copied_config(dir, [](nlohmann::json& c) { c["scale_attn_weights"] = "no"; });
  refused(dir, "config.json: \"scale_attn_weights\" must be true or false, not \"no\"");
  dir = refusal_copy("gpt2", "fifo");
  fs::remove(dir / "model.safetensors");
  REQUIRE(::mkfifo((dir / "model.safetensors").c_str(), 0600) == 0);
  refused(dir, "not a regular file");
  dir = refusal_copy("gpt2", "deep");
  std::ofstream(dir / "config.json") << "{\"model_type\": \"gpt2\", \"n_embd\": " + std::string(100000, '[') +
                                            std::string(100000, ']') + "}";
  refused(dir, "config.json: nested deeper than 32 levels");
}
