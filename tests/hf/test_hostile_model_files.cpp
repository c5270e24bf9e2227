// Model folders built to hurt: a FIFO where a file belongs, JSON nested far
// past the stack, a tensor in two shards, NaN weights, a NUL in a name, and
// a weights file cut short or rewritten while it is open. Each gets one
// line naming what is wrong; none blocks, crashes or is read silently.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "json/bounded_json.hpp"
#include "safetensors_bytes.hpp"

using namespace attn::hf;
using namespace attn::hf::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// 2048 positions: wpe alone spans 8 pages, so a file cut after the header
// leaves every later tensor on pages wholly past its end (where a read faults).
constexpr std::int64_t kPositions = 2048;

json paged_config() {
  return {{"model_type", "gpt2"}, {"n_embd", 4}, {"n_head", 2}, {"n_layer", 1}, {"vocab_size", 5},
          {"n_positions", kPositions}};
}

// GPT-2 with one layer; `fill` gives every value (by tensor name and index).
std::vector<FakeTensor> paged_tensors(float (*fill)(const std::string&, std::size_t) = nullptr) {
  auto t = [&](std::string name, std::vector<std::int64_t> shape) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = fill ? fill(name, i) : 0.01f * static_cast<float>((i * 7) % 13) - 0.05f;
    return FakeTensor{std::move(name), "F32", std::move(shape), std::move(v)};
  };
  return {t("wte.weight", {5, 4}),          t("wpe.weight", {kPositions, 4}),          t("h.0.ln_1.weight", {4}),
          t("h.0.ln_1.bias", {4}),          t("h.0.attn.c_attn.weight", {4, 12}), t("h.0.attn.c_attn.bias", {12}),
          t("h.0.attn.c_proj.weight", {4, 4}), t("h.0.attn.c_proj.bias", {4}), t("h.0.ln_2.weight", {4}),
          t("h.0.ln_2.bias", {4}),          t("h.0.mlp.c_fc.weight", {4, 16}), t("h.0.mlp.c_fc.bias", {16}),
          t("h.0.mlp.c_proj.weight", {16, 4}), t("h.0.mlp.c_proj.bias", {4}), t("ln_f.weight", {4}),
          t("ln_f.bias", {4})};
}

fs::path paged_folder(const std::string& name, const std::vector<FakeTensor>& tensors) {
  const auto dir = fresh_dir(name);
  write_file(dir / "config.json", paged_config().dump());
  write_file(dir / "model.safetensors", safetensors_bytes(tensors));
  return dir;
}

template <class F>
std::string hostile_message(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("hostile files: a FIFO as config.json or as the weights is refused without blocking") {
  const auto dir = paged_folder("hostile_fifo", paged_tensors());
  fs::remove(dir / "model.safetensors");
  REQUIRE(::mkfifo((dir / "model.safetensors").c_str(), 0600) == 0);
  CHECK(hostile_message([&] { Checkpoint::open(dir); }).find("not a regular file") != std::string::npos);
  fs::remove(dir / "config.json");
  REQUIRE(::mkfifo((dir / "config.json").c_str(), 0600) == 0);
  CHECK(hostile_message([&] { Checkpoint::open(dir); }).find("config.json: not a regular file") != std::string::npos);
}

TEST_CASE("hostile files: the index's shard is the one read, and it must hold the tensor") {
  auto tensors = paged_tensors();
  const auto dir = fresh_dir("hostile_two_shards");
  write_file(dir / "config.json", paged_config().dump());
  // ln_f.bias in both shards, with different values; the index names the second.
  std::vector<FakeTensor> first(tensors.begin(), tensors.begin() + 8), second(tensors.begin() + 8, tensors.end());
  first.push_back(second.back());
  first.back().values.assign(4, 9.0f);
  write_file(dir / "a.safetensors", safetensors_bytes(first));
  write_file(dir / "b.safetensors", safetensors_bytes(second));
  json map;
  for (const auto& t : first) map[t.name] = "a.safetensors";
  for (const auto& t : second) map[t.name] = "b.safetensors";
  write_file(dir / "model.safetensors.index.json", json{{"weight_map", map}}.dump());
  const auto ck = Checkpoint::open(dir);
  CHECK(ck->find("ln_f.bias").file->what() == "b.safetensors");
  map["h.0.ln_1.bias"] = "b.safetensors";  // which b does not hold
  write_file(dir / "model.safetensors.index.json", json{{"weight_map", map}}.dump());
  CHECK(hostile_message([&] { Checkpoint::open(dir); }) ==
        "model.safetensors.index.json puts \"h.0.ln_1.bias\" in b.safetensors, which does not hold it");
  // A NUL inside a shard name is shown escaped, with what follows it.
  map["h.0.ln_1.bias"] = std::string("a\0/../x.safetensors", 19);
  write_file(dir / "model.safetensors.index.json", json{{"weight_map", map}}.dump());
  CHECK(hostile_message([&] { Checkpoint::open(dir); }).find("a\\u0000/../x.safetensors") != std::string::npos);
}

TEST_CASE("hostile files: a safetensors header nested past the stack is refused") {
  const auto dir = fresh_dir("hostile_deep_header");
  write_file(dir / "config.json", paged_config().dump());
  write_file(dir / "model.safetensors", safetensors_layout(std::string(200000, '[') + std::string(200000, ']'), ""));
  CHECK(hostile_message([&] { Checkpoint::open(dir); }).find("model.safetensors: the header: nested deeper than 32") !=
        std::string::npos);
}

TEST_CASE("hostile files: JSON bounds count every value and every level") {
  using attn::hf::detail::parse_bounded_json;
  const attn::hf::detail::JsonBounds small{4, 100};
  CHECK_NOTHROW(parse_bounded_json("[[[[1]]]]", "f.json", small));
  CHECK(hostile_message([&] { parse_bounded_json("[[[[[1]]]]]", "f.json", small); }) ==
        "f.json: nested deeper than 4 levels of arrays and objects (no model file needs that many)");
  std::string many = "[";
  for (int i = 0; i < 100; ++i) many += "{},";
  many += "{}]";
  CHECK(hostile_message([&] { parse_bounded_json(many, "f.json", small); }) ==
        "f.json: more than 100 values (no model file needs that many)");
}

TEST_CASE("hostile files: a tokenizer normalizer nested 100,000 deep is refused, not recursed") {
  std::string normalizer;
  for (int i = 0; i < 100000; ++i) normalizer += "{\"type\": \"Sequence\", \"normalizers\": [";
  normalizer += "{\"type\": \"Lowercase\"}";
  for (int i = 0; i < 100000; ++i) normalizer += "]}";
  const std::string text = "{\"normalizer\": " + normalizer + ", \"model\": {\"type\": \"WordLevel\", \"vocab\": {}}}";
  CHECK(hostile_message([&] { Tokenizer::from_json(text); }).find("tokenizer.json: nested deeper than 64") != std::string::npos);
}

TEST_CASE("hostile files: NaN or infinite weights are refused, never shown as NaN") {
  const auto nan_dir = paged_folder("hostile_nan", paged_tensors([](const std::string& name, std::size_t i) {
    return name == "h.0.mlp.c_proj.weight" && i == 3 ? std::numeric_limits<float>::quiet_NaN() : 0.01f;
  }));
  const auto ck = Checkpoint::open(nan_dir);
  CHECK(hostile_message([&] { run_forward<double>(*ck, {1, 2, 3}); }).find("layer 0 gives numbers that are not finite") !=
        std::string::npos);
  CHECK(hostile_message([&] { run_forward<float>(*ck, {1, 2, 3}); }).find("not finite") != std::string::npos);
  const auto inf_dir = paged_folder("hostile_inf", paged_tensors([](const std::string& name, std::size_t i) {
    return name == "wte.weight" && i == 5 ? std::numeric_limits<float>::infinity() : 0.01f;
  }));
  CHECK(hostile_message([&] { run_forward<double>(*Checkpoint::open(inf_dir), {1, 2}); }).find("embeddings of this text") !=
        std::string::npos);
}

TEST_CASE("hostile files: weights cut short or rewritten while open are refused, not a crash") {
  const auto dir = paged_folder("hostile_truncated", paged_tensors());
  const auto ck = Checkpoint::open(dir);
  CHECK_NOTHROW(run_forward<double>(*ck, {1, 2, 3}));
  fs::resize_file(dir / "model.safetensors", 64);  // as `cp` does first, before writing
  const std::string cut = hostile_message([&] { run_forward<double>(*ck, {1, 2, 3}); });
  CHECK(cut.find("model.safetensors was cut short on disk while it was open") != std::string::npos);  // the SIGBUS guard
  CHECK(cut.find("open the model again") != std::string::npos);

  // Same size, new bytes, new modification time: `cp` over it.
  const auto dir2 = paged_folder("hostile_rewritten", paged_tensors());
  const auto ck2 = Checkpoint::open(dir2);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write_file(dir2 / "model.safetensors", safetensors_bytes(paged_tensors([](const std::string&, std::size_t) { return 0.5f; })));
  CHECK(hostile_message([&] { run_forward<double>(*ck2, {1, 2, 3}); }).find("was rewritten on disk while it was open") !=
        std::string::npos);
}

TEST_CASE("hostile files: a missing tensor is found before any pass") {
  auto tensors = paged_tensors();
  tensors.erase(tensors.begin() + 5);  // h.0.attn.c_attn.bias
  const auto ck = Checkpoint::open(paged_folder("hostile_missing", tensors));
  CHECK(hostile_message([&] { check_tensors(*ck); }).find("no tensor \"h.0.attn.c_attn.bias\"") != std::string::npos);
  CHECK_NOTHROW(check_tensors(*Checkpoint::open(paged_folder("hostile_complete", paged_tensors()))));
}
