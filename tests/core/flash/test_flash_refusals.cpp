// What compute_flash refuses, each with the message a user reads: blocks
// below 1 or longer than the sequence, a head the scene lacks, too many
// tiles or numbers to keep, and the options whose softmax is not a row-wise
// softmax of Q·Kᵀ (mask after softmax, softmax over queries, additive scores).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "attn/flash/flash.hpp"
#include "attn/explain/flash_explain.hpp"
#include "attn/compute/trace.hpp"
#include "flash_scenes.hpp"

namespace {

// The message compute_flash throws for these options ("" when it does not throw).
std::string refusal(const attn::Trace& trace, attn::FlashOptions o) {
  try {
    attn::compute_flash(trace, o);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

attn::Trace small_trace(void (*edit)(attn::Scenario&) = nullptr) {
  flash_test::SceneSpec spec;  // 5 tokens, 2 heads
  attn::Scenario s = flash_test::make_flash_scene(spec);
  if (edit) edit(s);
  return attn::compute_trace(s);
}

}  // namespace

TEST_CASE("flash refuses: blocks below 1 or larger than the sequence") {
  const attn::Trace t = small_trace();
  for (attn::FlashOptions o : {attn::FlashOptions{0, 0, 2}, attn::FlashOptions{0, 2, 0}, attn::FlashOptions{0, -3, 2}}) {
    const std::string m = refusal(t, o);
    CAPTURE(m);
    CHECK(has(m, "block sizes must be at least 1, got B_r = " + std::to_string(o.block_rows) + ", B_c = " +
                     std::to_string(o.block_cols)));
  }
  CHECK(refusal(t, {0, 6, 2}) == "B_r = 6 is larger than the 5 queries: a tile can be at most the whole sequence");
  CHECK(refusal(t, {0, 2, 6}) == "B_c = 6 is larger than the 5 keys: a tile can be at most the whole sequence");
  CHECK(refusal(t, {0, 5, 5}).empty());  // one tile: the whole sequence
}

TEST_CASE("flash refuses: a head the scene lacks") {
  const attn::Trace t = small_trace();
  CHECK(refusal(t, {2, 2, 2}) == "head 2 is out of range (the scene has 2 heads, 0 to 1)");
  CHECK(refusal(t, {-1, 2, 2}) == "head -1 is out of range (the scene has 2 heads, 0 to 1)");
  CHECK(refusal(t, {1, 2, 2}).empty());
}

TEST_CASE("flash refuses: options whose softmax is not along each query's keys") {
  const std::string after = refusal(small_trace([](attn::Scenario& s) {
    s.mask = attn::MaskKind::Causal;
    s.mask_mode = attn::MaskMode::AfterSoftmax;
  }), {});
  CHECK(has(after, "a mask applied after the softmax needs each row's whole softmax first"));
  const std::string columns =
      refusal(small_trace([](attn::Scenario& s) { s.softmax_axis = attn::SoftmaxAxis::Queries; }), {});
  CHECK(has(columns, "FlashAttention's online softmax runs along each query's keys"));
  const std::string additive = refusal(small_trace([](attn::Scenario& s) { s.score = attn::ScoreFn::Additive; }), {});
  CHECK(has(additive, "additive scores (v · tanh(q W + k U)) are no such product"));
}

TEST_CASE("flash refuses: more tiles than it keeps, and suggests larger blocks") {
  flash_test::SceneSpec spec;
  spec.n_q = 100, spec.n_heads = 1, spec.d_model = 2, spec.d_k = 2, spec.d_v = 2;
  const attn::Trace t = attn::compute_trace(flash_test::make_flash_scene(spec));
  CHECK(refusal(t, {0, 1, 1}) ==
        "100 × 100 = 10000 tiles is more than the " + std::to_string(attn::kMaxFlashTiles) +
            " kept for viewing: choose larger blocks (B_r, B_c)");
  CHECK(refusal(t, {0, 2, 2}).empty());  // 50 × 50 = 2500 tiles
}

TEST_CASE("flash refuses: tiles that would hold more numbers than it keeps") {
  attn::Scenario s;
  s.x = attn::Mat::Constant(4096, 1, 0.5);  // one head, no projections: 4096² scores
  const attn::Trace t = attn::compute_trace(s);
  const std::string m = refusal(t, {0, 256, 256});  // 16 × 16 tiles, but 2 × 4096² numbers
  CAPTURE(m);
  CHECK(has(m, "more than the " + std::to_string(attn::kMaxFlashCells) + " kept for viewing: choose larger key blocks"));
}

TEST_CASE("flash: a tile or cell that does not exist is named, not read") {
  const attn::Trace t = small_trace();
  const attn::FlashAttention fa = attn::compute_flash(t, {0, 2, 2});
  CHECK_THROWS_WITH_AS(fa.tile(3, 0), "tile (3, 0) does not exist (3 query blocks × 3 key blocks)", std::out_of_range);
  CHECK_THROWS_WITH_AS(attn::explain_flash(fa, t, {attn::StageKind::flash_p, 2, 2, 1, 0}),
                       "cell [1][0] is out of range (P_ij (before ÷ ℓ) (i = 2, j = 2) is 1×1)", std::out_of_range);
  CHECK_THROWS_WITH_AS(attn::explain_flash(fa, t, {attn::StageKind::weights, 0, 0, 0, 0}),
                       "stage \"weights\" is not one of FlashAttention's tiles", std::out_of_range);
}
