// FlashAttention's tiles against the plain trace: for every block size from
// 1 to the sequence (uneven last blocks included) and every head of scenes
// with each mask kind, position scheme, RoPE and grouped heads, the stacked
// O_i / ℓ equals the plain head output, and the running max and sum after
// the last key block equal the plain softmax's row max and sum.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/flash/flash.hpp"
#include "attn/compute/trace.hpp"
#include "flash_scenes.hpp"

namespace {

// The tiles add the same terms as the plain path in another order (the
// plain scores come from a blocked matrix product, the tiles' from a loop,
// and P · V is summed a key block at a time), so they agree to rounding:
// with inputs in [−1, 1) and at most 7 keys, well under 1e-12.
constexpr double kTol = 1e-12;

struct Worst {
  double diff = 0;
  int row = 0, col = 0;
  double flash = 0, plain = 0;
};

// Computed here rather than read from FlashAttention::max_abs_diff, so the
// test does not trust the code it checks.
Worst worst_element(const attn::Mat& flash, const attn::Mat& plain) {
  Worst w;
  for (int r = 0; r < plain.rows(); ++r)
    for (int c = 0; c < plain.cols(); ++c) {
      const double d = std::abs(flash(r, c) - plain(r, c));
      if (!(d <= w.diff)) w = {d, r, c, flash(r, c), plain(r, c)};
    }
  return w;
}

}  // namespace

TEST_CASE("flash: the tiles' output equals the plain head output for every block size, mask and option") {
  for (const flash_test::SceneSpec& spec : flash_test::flash_cases()) {
    CAPTURE(spec.name);
    const attn::Scenario s = flash_test::make_flash_scene(spec);
    REQUIRE(attn::validate(s).empty());
    const attn::Trace trace = attn::compute_trace(s);
    int runs = 0;
    for (int h = 0; h < trace.dims.n_heads; ++h) {
      const attn::Mat plain = trace.find(attn::StageKind::head_output, h)->value.dense();
      for (int b_r = 1; b_r <= trace.dims.n_q; ++b_r)
        for (int b_c = 1; b_c <= trace.dims.n_k; ++b_c) {
          const attn::FlashAttention fa = attn::compute_flash(trace, {h, b_r, b_c});
          REQUIRE(fa.output.value.rows() == plain.rows());
          REQUIRE(fa.output.value.cols() == plain.cols());
          const Worst w = worst_element(fa.output.value.dense(), plain);
          INFO("head " << h << ", B_r = " << b_r << ", B_c = " << b_c << ": worst at [" << w.row << "][" << w.col
                       << "], flash " << w.flash << ", plain " << w.plain);
          CHECK(w.diff <= kTol);
          CHECK(fa.max_abs_diff == doctest::Approx(w.diff));
          // Each block's own output rows are the stacked output's.
          for (const attn::FlashBlock& b : fa.blocks)
            CHECK(worst_element(b.output.value.dense(), plain.middleRows(b.row0, b.rows)).diff <= kTol);
          ++runs;
        }
    }
    CHECK(runs == trace.dims.n_heads * trace.dims.n_q * trace.dims.n_k);
  }
}

TEST_CASE("flash: after the last key block, each row's running max and sum are the plain softmax's") {
  for (const flash_test::SceneSpec& spec : flash_test::flash_cases()) {
    CAPTURE(spec.name);
    const attn::Trace trace = attn::compute_trace(flash_test::make_flash_scene(spec));
    for (int h = 0; h < trace.dims.n_heads; ++h) {
      const attn::SoftmaxStats& stats = trace.softmax[static_cast<size_t>(h)];
      for (int b_r : {1, 2, 3})
        for (int b_c : {1, 2, 3}) {
          const attn::FlashAttention fa = attn::compute_flash(trace, {h, b_r, b_c});
          for (const attn::FlashBlock& b : fa.blocks) {
            const attn::FlashTile& last = b.tiles.back();
            CHECK(last.j == fa.key_blocks() - 1);
            CHECK(last.col0 + last.cols == trace.dims.n_k);
            for (int r = 0; r < b.rows; ++r) {
              const int q = b.row0 + r;
              const double m = last.max_new.value(r, 0), l = last.sum.value(r, 0);
              INFO("head " << h << ", B_r = " << b_r << ", B_c = " << b_c << ", query " << q << ": flash m " << m
                           << ", ℓ " << l << "; plain max " << stats.max(q) << ", sum " << stats.sum(q));
              if (stats.sum(q) == 0) {
                // Every key blocked: the plain path keeps max 0 and sum 0; the
                // tiles never saw an open key, so m stays −∞.
                CHECK(m == -std::numeric_limits<double>::infinity());
                CHECK(l == 0);
              } else {
                CHECK(std::abs(m - stats.max(q)) <= kTol);
                CHECK(std::abs(l - stats.sum(q)) <= kTol * stats.sum(q));
              }
            }
          }
        }
    }
  }
}

TEST_CASE("flash: the fully blocked row of a custom mask is 0, and its tiles hold no NaN") {
  flash_test::SceneSpec spec;
  spec.mask = attn::MaskKind::Custom, spec.custom_full_row = true, spec.n_q = 5;
  const attn::Trace trace = attn::compute_trace(flash_test::make_flash_scene(spec));
  const attn::FlashAttention fa = attn::compute_flash(trace, {0, 2, 2});
  CHECK(fa.output.value.row(1).isZero(0));
  for (const attn::FlashBlock& b : fa.blocks)
    for (const attn::FlashTile& t : b.tiles)
      for (const attn::Stage* g : {&t.max_new, &t.rescale, &t.p, &t.sum, &t.o}) {
        CAPTURE(g->title);
        CHECK(!g->value.dense().hasNaN());
      }
}
