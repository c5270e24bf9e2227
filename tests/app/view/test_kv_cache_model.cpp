// The "KV cache" panel model: the scene decoded once per trace, every step
// equal to the full causal trace's rows, the step clamped, play as a pure
// function of the seconds since it started, refusals as text, and the
// hovered cell explained.
#include <doctest/doctest.h>

#include <string>

#include "attn/io/scenario_file.hpp"
#include "model/kv_cache/kv_cache_model.hpp"

namespace {

attn::Scenario load(const std::string& name) {
  return attn::io::load_scenario(ATTNVIZ_ASSETS_DIR "/scenarios/" + name + ".json").scenario;
}

// kv_cache.json, its full trace, and a panel model with its choice.
struct Decoded {
  attn::Scenario s = load("kv_cache");
  attn::Trace trace = attn::compute_trace(s);
  model::KvCacheModel m;
  model::KvCacheChoice choice;
};

}  // namespace

TEST_CASE("kv cache model: kv_cache.json decodes every token and matches the full trace") {
  Decoded d;
  auto& [s, trace, m, choice] = d;
  m.update(trace, s, 1, -1, choice, 0);
  REQUIRE(m.view().ok);
  CHECK(m.view().error.empty());
  CHECK(m.steps() == static_cast<int>(s.x.rows()));
  CHECK(m.head() == 0);  // all heads shown: the panel takes head 0
  for (double d : m.view().max_difference) CHECK(d < 1e-12);
  REQUIRE(m.current());
  CHECK(m.current()->t == 0);
  CHECK(m.current()->cache.tokens == 1);

  choice.step = 3;
  m.update(trace, s, 1, 1, choice, 0);
  CHECK(m.builds() == 1);  // stepping only moves an index
  CHECK(m.step() == 3);
  CHECK(m.head() == 1);
  const nlohmann::json j = m.dump(true);
  CHECK(j["open"] == true);
  CHECK(j["step"] == 3);
  CHECK(j["new_row"] == 3);
  CHECK(j["cache_rows"] == 4);
  CHECK(j["steps"] == m.steps());
  CHECK(j["macs_cached"].get<long long>() < j["macs_uncached"].get<long long>());
  CHECK(j["max_difference"].get<double>() < 1e-12);

  m.update(trace, s, 2, 1, choice, 0);
  CHECK(m.builds() == 2);  // a new trace decodes again
}

TEST_CASE("kv cache model: the step and the head are clamped") {
  Decoded d;
  auto& [s, trace, m, choice] = d;
  choice.step = 1000;
  m.update(trace, s, 1, 99, choice, 0);
  CHECK(choice.step == m.steps() - 1);
  CHECK(m.step() == m.steps() - 1);
  CHECK(m.head() == trace.dims.n_heads - 1);
  choice.step = -5;
  m.update(trace, s, 1, 0, choice, 0);
  CHECK(choice.step == 0);
}

TEST_CASE("kv cache model: play shows one token a second from where it started") {
  CHECK(model::kv_play_step(0, 0.0, 8) == 0);
  CHECK(model::kv_play_step(0, 0.99, 8) == 0);
  CHECK(model::kv_play_step(0, 1.0, 8) == 1);
  CHECK(model::kv_play_step(2, 3.5, 8) == 5);
  CHECK(model::kv_play_step(2, 100, 8) == 7);  // stops at the last token
  CHECK(model::kv_play_step(2, -1, 8) == 2);
  CHECK(model::kv_play_step(0, 5, 0) == 0);

  Decoded d;
  auto& [s, trace, m, choice] = d;
  choice.playing = true;
  choice.play_from = 2;
  m.update(trace, s, 1, 0, choice, 0.5);
  CHECK(m.step() == 2);
  CHECK(m.dump(true)["playing"] == true);
  m.update(trace, s, 1, 0, choice, 0.6);  // 1.1 s in
  CHECK(m.step() == 3);
  CHECK(choice.playing);
  m.update(trace, s, 1, 0, choice, 60);  // long after: the last token, and play stops
  CHECK(m.step() == m.steps() - 1);
  CHECK_FALSE(choice.playing);
  CHECK(m.dump(true)["playing"] == false);
}

TEST_CASE("kv cache model: scenes that cannot be decoded are refused with a reason") {
  for (const char* name : {"cross_attention", "masking_after_softmax"}) {
    CAPTURE(name);
    const attn::Scenario s = load(name);
    model::KvCacheModel m;
    model::KvCacheChoice choice;
    m.update(attn::compute_trace(s), s, 1, 0, choice, 0);
    CHECK_FALSE(m.view().ok);
    CHECK_FALSE(m.view().error.empty());
    CHECK(m.current() == nullptr);
    CHECK(m.steps() == 0);
    CHECK(m.dump(true)["error"] == m.view().error);
    CHECK(m.dump(true)["cache_rows"] == 0);
  }
  // Longer scenes than the panel keeps are refused by the panel itself.
  attn::Scenario s = load("kv_cache");
  const Eigen::Index d_model = s.x.cols();
  s.x = attn::Mat::Constant(model::kKvMaxTokens + 1, d_model, 0.1);
  s.tokens.clear();
  const std::string why = model::kv_refusal(s, static_cast<int>(s.x.rows()));
  CHECK(why.find(std::to_string(model::kKvMaxTokens)) != std::string::npos);
  CHECK(model::kv_refusal(load("kv_cache"), 8).empty());
}

TEST_CASE("kv cache model: the hovered cell is explained for the step shown") {
  Decoded d;
  auto& [s, trace, m, choice] = d;
  choice.step = 2;
  choice.hover = model::KvCacheChoice::Hover{attn::StageKind::step_weights, 0, 0, 1};
  m.update(trace, s, 1, 0, choice, 0);
  REQUIRE(m.hovered());
  CHECK(m.hovered()->stage.id == attn::StageKind::step_weights);
  CHECK(m.hovered()->col == 1);
  CHECK_FALSE(m.hovered()->to_text().empty());
  choice.hover = model::KvCacheChoice::Hover{attn::StageKind::step_weights, 0, 0, 50};  // no such cell
  m.update(trace, s, 1, 0, choice, 0);
  CHECK(m.hovered() == nullptr);
  choice.hover.reset();
  m.update(trace, s, 1, 0, choice, 0);
  CHECK(m.hovered() == nullptr);
}
