// What the KV cache refuses, each with its reason: scenes where token t's
// result depends on tokens after it, scores it does not decode, and more
// tokens than its cap.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "attn/decode/decode.hpp"
#include "random_scenario.hpp"

namespace {

attn::Scenario causal_scene(unsigned seed = 3) {
  ref::CaseSpec c;
  c.n_q = 4, c.d_model = 3, c.n_heads = 1, c.d_k = 2, c.d_v = 2;
  c.mask = attn::MaskKind::Causal;
  c.seed = seed;
  return ref::make_scenario(c);
}

std::string refusal(const attn::Scenario& s, int steps = -1) {
  try {
    attn::compute_decode(s, steps);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string step_refusal(const attn::Scenario& s, const attn::DecodeCache& cache) {
  try {
    attn::decode_step(s, cache);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("decode refuses cross-attention") {
  ref::CaseSpec c;
  c.n_q = 3, c.n_k = 3, c.cross = true, c.n_heads = 1, c.mask = attn::MaskKind::Causal;
  const std::string why = refusal(ref::make_scenario(c));
  CAPTURE(why);
  CHECK(mentions(why, "cross-attention"));
}

TEST_CASE("decode refuses a mask that shows a later key") {
  attn::Scenario s = causal_scene();
  s.mask = attn::MaskKind::None;
  std::string why = refusal(s);
  CAPTURE(why);
  CHECK(mentions(why, "the KV cache needs a mask that hides later tokens"));

  s.mask = attn::MaskKind::Custom;
  s.custom_mask = attn::BoolMat::Constant(4, 4, false);
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) s.custom_mask(i, j) = true;
  CHECK(refusal(s) == "(accepted)");  // lower triangular: as causal
  s.custom_mask(1, 3) = false;
  why = refusal(s);
  CHECK(mentions(why, "the KV cache needs a mask that hides later tokens"));
  CHECK(mentions(why, "cell [1][3]"));
  // Decoding only tokens 0 and 1 still meets query 1's view of key 3.
  CHECK(mentions(refusal(s, 2), "cell [1][3]"));
  CHECK(refusal(s, 1) == "(accepted)");
  // The same cell hidden by key padding is no longer seen: accepted.
  s.key_padding = {false, false, false, true};
  CHECK(refusal(s) == "(accepted)");
}

TEST_CASE("decode refuses a mask after the softmax, a softmax over queries and additive scores") {
  attn::Scenario s = causal_scene();
  s.mask_mode = attn::MaskMode::AfterSoftmax;
  CHECK(mentions(refusal(s), "mask_mode: the KV cache needs the mask before the softmax"));
  s = causal_scene();
  s.softmax_axis = attn::SoftmaxAxis::Queries;
  CHECK(mentions(refusal(s), "softmax_axis: the KV cache needs the softmax over keys"));
  s = causal_scene();
  s.score = attn::ScoreFn::Additive;
  CHECK(mentions(refusal(s), "score: the KV cache here decodes dot-product scores"));
}

TEST_CASE("decode refuses steps outside the scene, an invalid scene, and more tokens than its cap") {
  const attn::Scenario s = causal_scene();
  CHECK(mentions(refusal(s, 5), "steps: 5 is out of range (the scene has 4 tokens, 1 to 4)"));
  CHECK(mentions(refusal(s, 0), "steps: 0 is out of range"));
  attn::Scenario bad = s;
  bad.heads[0].w_k = attn::Mat::Zero(2, 2);
  CHECK(mentions(refusal(bad), "heads[0].w_k"));

  // 4097 one-wide tokens without projections: the cap, with its reason.
  attn::Scenario long_scene;
  long_scene.x = attn::Mat::Zero(attn::kMaxDecodeTokens + 1, 1);
  long_scene.mask = attn::MaskKind::Causal;
  const std::string why = refusal(long_scene);
  CAPTURE(why);
  CHECK(mentions(why, "4097 tokens is more than the decoder's cap of 4096"));
  CHECK(mentions(why, "memory grows with the square of the tokens"));
  // decode_step meets the same cap on the 4097th token, from a full cache.
  attn::DecodeCache full;
  full.tokens = attn::kMaxDecodeTokens;
  full.k = {std::make_shared<const attn::Mat>(attn::Mat::Zero(full.tokens, 1))};
  full.v = full.k;
  CHECK(mentions(step_refusal(long_scene, full), "cap of 4096"));
}

TEST_CASE("compute_decode refuses to keep more caches than a trace may hold, before computing any") {
  // 4000 tokens, one head 400 + 400 wide: each kept step's cache, summed, is
  // about 4000²/2 × 800 × 8 bytes = 51 GB, past the 6 GB a trace may take.
  attn::Scenario s;
  s.x = attn::Mat::Zero(4000, 1);
  s.heads.push_back({attn::Mat::Zero(1, 400), attn::Mat::Zero(1, 400), attn::Mat::Zero(1, 400)});
  s.mask = attn::MaskKind::Causal;
  const std::string why = refusal(s);
  CAPTURE(why);
  CHECK(mentions(why, "steps: keeping all 4000 steps would hold 51"));
  CHECK(mentions(why, "one at a time with decode_step"));
  // One step at a time holds one cache: the first step is fine.
  CHECK(attn::decode_step(s, {}).cache.tokens == 1);
}

TEST_CASE("decode_step refuses a cache of another scene") {
  const attn::Scenario s = causal_scene();
  attn::DecodeCache wrong;
  wrong.tokens = 1;
  wrong.k = {std::make_shared<const attn::Mat>(attn::Mat::Zero(1, 3))};  // d_k is 2
  wrong.v = {std::make_shared<const attn::Mat>(attn::Mat::Zero(1, 2))};
  CHECK(mentions(step_refusal(s, wrong), "the cache does not belong to this scene"));
}

TEST_CASE("decode: a score that overflows is a ComputeError naming the step, stage and cell") {
  attn::Scenario s = causal_scene();
  s.x.row(1) *= 1e155;  // q_1 · k_1 ≈ 1e310: past double's range
  try {
    attn::compute_decode(s);
    FAIL("no error");
  } catch (const attn::ComputeError& e) {
    CAPTURE(e.what());
    CHECK(std::string(e.what()).find("decode step 1") != std::string::npos);
    CHECK(e.stage.id == attn::StageKind::step_scores);
    CHECK(e.row == 0);
  }
}
