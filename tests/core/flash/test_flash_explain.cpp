// Every cell of every tile explained: the explanation redoes the cell's
// arithmetic from the numbers it names, and its last step's result must be
// the cell's stored value. The scene has ALiBi, a causal mask and a fully
// blocked row, so the −∞ and "nothing seen yet" branches are explained too.
#include <doctest/doctest.h>

#include <cmath>

#include "attn/explain/flash_explain.hpp"
#include "flash_scenes.hpp"

namespace {

// The explanation adds the same terms in the same order as the loop that
// made the cell, so the two agree bit for bit (−∞ included).
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void check_cell(const attn::FlashAttention& fa, const attn::Trace& trace, const attn::FlashCell& at, double value) {
  const attn::Explanation e = attn::explain_flash(fa, trace, at);
  REQUIRE(!e.steps.empty());
  INFO(attn::name_of(at.stage) << " tile (" << at.i << ", " << at.j << ") [" << at.row << "][" << at.col
                               << "]: cell " << value << ", explained " << e.steps.back().result << "\n"
                               << e.to_text());
  CHECK(same(e.value, value));
  CHECK(same(e.steps.back().result, value));
}

}  // namespace

TEST_CASE("flash explain: each tile cell's explanation ends at the cell's value") {
  flash_test::SceneSpec spec;
  spec.n_q = 5, spec.mask = attn::MaskKind::Custom, spec.custom_full_row = true;
  spec.positional = attn::Positional::Alibi;
  const attn::Trace trace = attn::compute_trace(flash_test::make_flash_scene(spec));
  using K = attn::StageKind;
  int explained = 0;
  for (int h = 0; h < trace.dims.n_heads; ++h) {
    const attn::FlashAttention fa = attn::compute_flash(trace, {h, 2, 3});  // uneven: 5 = 2 + 2 + 1, 5 = 3 + 2
    for (const attn::FlashBlock& b : fa.blocks) {
      for (const attn::FlashTile& t : b.tiles) {
        const std::pair<K, const attn::Stage*> grids[] = {
            {K::flash_scores, &t.scores}, {K::flash_max_old, &t.max_old}, {K::flash_max, &t.max_new},
            {K::flash_rescale, &t.rescale}, {K::flash_p, &t.p}, {K::flash_sum, &t.sum}, {K::flash_o, &t.o}};
        for (const auto& [kind, g] : grids)
          for (int r = 0; r < g->value.rows(); ++r)
            for (int c = 0; c < g->value.cols(); ++c, ++explained) check_cell(fa, trace, {kind, t.i, t.j, r, c}, g->value(r, c));
      }
      for (int r = 0; r < b.rows; ++r)
        for (int c = 0; c < fa.d_v; ++c) check_cell(fa, trace, {K::flash_block_output, b.i, 0, r, c}, b.output.value(r, c));
    }
    for (int r = 0; r < fa.n_q; ++r)
      for (int c = 0; c < fa.d_v; ++c) check_cell(fa, trace, {K::flash_output, 0, 0, r, c}, fa.output.value(r, c));
  }
  CHECK(explained > 100);
}

TEST_CASE("flash explain: a score cell names Q's and K's rows and its products sum to Q_i · K_j") {
  flash_test::SceneSpec spec;
  spec.rope = true;  // the products must read the rotated Q and K, as the plain scores do
  const attn::Trace trace = attn::compute_trace(flash_test::make_flash_scene(spec));
  const attn::FlashAttention fa = attn::compute_flash(trace, {1, 2, 2});
  const attn::Explanation e = attn::explain_flash(fa, trace, {attn::StageKind::flash_scores, 1, 1, 0, 1});
  REQUIRE(e.sources.size() == 2);
  CHECK(e.sources[0].stage == attn::StageRef{attn::StageKind::q_rope, 1});
  CHECK(e.sources[0].row0 == 2);
  CHECK(e.sources[1].stage == attn::StageRef{attn::StageKind::k_rope, 1});
  CHECK(e.sources[1].row0 == 3);
  // The plain path's scaled score of the same query and key, to rounding.
  const double plain = trace.find(attn::StageKind::scaled, 1)->value(2, 3);
  CHECK(std::abs(e.value - plain) <= 1e-12);
}

TEST_CASE("flash explain: a tile's score formula names the divisor the scaled stage uses, and ALiBi when it is there") {
  struct Case {
    attn::ScaleMode scale;
    attn::Positional positional;
    const char* formula;
    double softcap = 0;
  };
  const Case cases[] = {
      {attn::ScaleMode::SqrtDk, attn::Positional::None, /* d_k = 4 */ "S_ij = Q_i · K_jᵀ / √d_k (√4), −∞ where blocked"},
      {attn::ScaleMode::Temperature, attn::Positional::None, "S_ij = Q_i · K_jᵀ / τ, −∞ where blocked"},
      {attn::ScaleMode::None, attn::Positional::None, "S_ij = Q_i · K_jᵀ, −∞ where blocked"},
      {attn::ScaleMode::SqrtDk, attn::Positional::Alibi, "S_ij = Q_i · K_jᵀ / √d_k (√4) + ALiBi bias, −∞ where blocked"},
      {attn::ScaleMode::SqrtDk, attn::Positional::None, "S_ij = c·tanh(Q_i · K_jᵀ / √d_k / c), −∞ where blocked, c = 0.5",
       0.5},
  };
  for (const Case& c : cases) {
    flash_test::SceneSpec spec;
    spec.positional = c.positional;
    attn::Scenario scene = flash_test::make_flash_scene(spec);
    scene.scale = c.scale;
    scene.temperature = 2.5;
    scene.softcap = c.softcap;
    const attn::Trace trace = attn::compute_trace(scene);
    const attn::FlashAttention fa = attn::compute_flash(trace, {0, 2, 2});
    CHECK(fa.blocks.at(0).tiles.at(0).scores.formula == c.formula);
  }
}
