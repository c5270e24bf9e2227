// The properties modern attention rests on, checked on seeded random scenes:
// RoPE makes the scores depend only on the distance between positions;
// grouped-query heads equal full heads that hold copies of their group's
// keys and values; an edit, a preview and a completion of a grouped scene
// equal a trace computed whole; the receptive field of a window; the
// explanations of rotated cells and shared keys; and the refusals.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "attn/attn.hpp"
#include "attn/compute/masks.hpp"
#include "attn/compute/rope.hpp"
#include "trace_diff.hpp"

namespace {

constexpr double kShiftTol = 1e-11;  // angles of ~100 radians lose ~1e-14 each; scores sum d_k terms

attn::Scenario grouped_scene(unsigned seed, int heads, int kv_heads, bool rope) {
  trace_diff::Rng r(seed);
  attn::Scenario s;
  s.x = r.mat(9, 6);
  const int group = heads / kv_heads;
  for (int h = 0; h < heads; ++h) {
    attn::HeadWeights w{r.mat(6, 4), attn::Mat(), attn::Mat()};
    if (h % group == 0) w.w_k = r.mat(6, 4), w.w_v = r.mat(6, 3);
    s.heads.push_back(w);
  }
  s.w_o = r.mat(heads * 3, 5);
  s.n_kv_heads = kv_heads;
  s.rope.on = rope;
  s.mask = attn::MaskKind::Causal;
  return s;
}

double worst_difference(const attn::Mat& a, const attn::Mat& b, std::string& where) {
  double worst = -1;
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < a.cols(); ++c) {
      const double d = std::abs(a(r, c) - b(r, c));
      if (d > worst) {
        worst = d;
        where = "[" + std::to_string(r) + "][" + std::to_string(c) + "]: " + std::to_string(a(r, c)) + " vs " +
                std::to_string(b(r, c));
      }
    }
  return worst;
}

}  // namespace

TEST_CASE("RoPE: shifting every position by the same amount leaves every score unchanged") {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    attn::Scenario s = grouped_scene(seed, 2, 2, true);
    s.rope.pairing = seed % 2 ? attn::RopePairing::Half : attn::RopePairing::Interleaved;
    s.rope.fraction = seed % 3 == 0 ? 0.5 : 1.0;
    const attn::Trace at0 = attn::compute_trace(s);
    for (int shift : {1, 17, 1000}) {
      s.rope.offset = shift;
      const attn::Trace moved = attn::compute_trace(s);
      for (int h = 0; h < 2; ++h) {
        std::string where;
        const double d = worst_difference(moved.find(attn::StageKind::scores, h)->value.dense(),
                                          at0.find(attn::StageKind::scores, h)->value.dense(), where);
        INFO("seed " << seed << " shift " << shift << " head " << h << " worst " << where);
        CHECK(d <= kShiftTol);
        // The rotated queries themselves do change: the invariance is of q·k, not of q.
        CHECK(moved.find(attn::StageKind::q_rope, h)->value.dense() != at0.find(attn::StageKind::q_rope, h)->value.dense());
      }
    }
  }
}

TEST_CASE("RoPE: a query and a key at the same distance score the same wherever they sit") {
  // One token repeated: its score against a key d positions back depends on d only.
  attn::Scenario s;
  trace_diff::Rng r(5);
  const attn::Mat row = r.mat(1, 6);
  s.x = row.replicate(8, 1);
  s.heads.push_back({r.mat(6, 4), r.mat(6, 4), r.mat(6, 4)});
  s.rope.on = true;
  const attn::Mat scores = attn::compute_trace(s).find(attn::StageKind::scores, 0)->value.dense();
  for (int d = 0; d < 4; ++d)
    for (int i = d + 1; i < 8; ++i) {
      INFO("distance " << d << " query " << i);
      CHECK(std::abs(scores(i, i - d) - scores(d, 0)) <= kShiftTol);
    }
}

TEST_CASE("grouped-query heads equal full heads that hold copies of their group's keys and values") {
  for (int kv : {1, 2, 4}) {
    const attn::Scenario grouped = grouped_scene(40u + kv, 4, kv, kv != 2);
    attn::Scenario full = grouped;
    full.n_kv_heads = 0;
    const int group = 4 / kv;
    for (int h = 0; h < 4; ++h) {
      full.heads[(size_t)h].w_k = grouped.heads[(size_t)(h - h % group)].w_k;
      full.heads[(size_t)h].w_v = grouped.heads[(size_t)(h - h % group)].w_v;
    }
    const attn::Trace a = attn::compute_trace(grouped), b = attn::compute_trace(full);
    INFO("n_kv_heads " << kv);
    // The same products of the same numbers: equal bit for bit.
    CHECK(a.find(attn::StageKind::output)->value.dense() == b.find(attn::StageKind::output)->value.dense());
    int own_k = 0;
    for (const attn::Stage& st : a.stages) own_k += st.id == attn::StageKind::k ? 1 : 0;
    CHECK(own_k == kv);  // each key/value head computed once
  }
  // n_kv_heads equal to the heads is plain multi-head attention.
  attn::Scenario same = grouped_scene(77, 3, 3, true);
  attn::Scenario plain = same;
  plain.n_kv_heads = 0;
  trace_diff::check_bit_identical(attn::compute_trace(same), attn::compute_trace(plain));
}

TEST_CASE("grouped-query scenes: edits, previews and completions equal a trace computed whole") {
  const attn::Scenario s = grouped_scene(90, 6, 2, true);
  const attn::Trace whole = attn::compute_trace(s);
  SUBCASE("an edit of a group's keys updates every head of the group") {
    attn::Scenario edited = s;
    edited.heads[3].w_k(1, 2) += 0.5;  // head 3 carries the second group's keys
    const attn::Trace updated = attn::update_trace(whole, s, edited);
    const attn::Trace fresh = attn::compute_trace(edited);
    for (int h = 3; h < 6; ++h)
      CHECK(updated.find(attn::StageKind::weights, h)->value.dense() == fresh.find(attn::StageKind::weights, h)->value.dense());
    CHECK(updated.find(attn::StageKind::weights, 0)->value.dense() == whole.find(attn::StageKind::weights, 0)->value.dense());
    std::string where;
    CHECK(worst_difference(updated.find(attn::StageKind::output)->value.dense(),
                           fresh.find(attn::StageKind::output)->value.dense(), where) <= 1e-12);
  }
  SUBCASE("an edit of a sharing head's queries") {
    attn::Scenario edited = s;
    edited.heads[4].w_q(0, 0) -= 0.25;
    // The output is updated by the one head's change (update.cpp): equal to rounding.
    const trace_diff::Diff d = trace_diff::diff(attn::update_trace(whole, s, edited), attn::compute_trace(edited));
    INFO(d.where);
    CHECK(d.structure == "");
    CHECK(d.exact_worst == 0.0);
    CHECK(d.rounding_worst <= 1e-12);
  }
  SUBCASE("a preview of a head that shares keys holds its group's first head too, and completes exactly") {
    for (int h = 0; h < 6; ++h) {
      const attn::Trace preview = attn::compute_preview(s, h);
      CHECK(preview.find(attn::StageKind::scores, h) != nullptr);
      CHECK(preview.find(attn::StageKind::k_rope, h - h % 3) != nullptr);
      trace_diff::check_bit_identical(attn::complete_trace(preview, s), whole);
    }
  }
}

TEST_CASE("masks: the window, its sinks and the stride, cell by cell, and how far information travels") {
  attn::Scenario s;
  s.x = attn::Mat::Zero(10, 2);
  s.mask = attn::MaskKind::SlidingWindow;
  s.window = 3;
  CHECK_FALSE(attn::mask_blocks(s, 5, 5));
  CHECK_FALSE(attn::mask_blocks(s, 5, 3));
  CHECK(attn::mask_blocks(s, 5, 2));
  CHECK(attn::mask_blocks(s, 5, 6));
  // A window of w reaches w − 1 further back each layer.
  CHECK(attn::receptive_field(s, 10, 1) == 2);
  CHECK(attn::receptive_field(s, 10, 3) == 6);
  CHECK(attn::receptive_field(s, 10, 9) == 9);
  s.sinks = 1;
  CHECK_FALSE(attn::mask_blocks(s, 9, 0));
  CHECK(attn::mask_blocks(s, 9, 1));
  CHECK(attn::receptive_field(s, 10, 1) == 9);  // the sink is seen directly
  s.mask = attn::MaskKind::Strided;
  s.stride = 3;
  CHECK_FALSE(attn::mask_blocks(s, 7, 5));  // local: within the last 3
  CHECK(attn::mask_blocks(s, 7, 3));        // 4 back: neither local nor a multiple of 3
  CHECK_FALSE(attn::mask_blocks(s, 7, 1));  // 6 back: a whole number of strides
  CHECK(attn::receptive_field(s, 10, 2) == 9);
  s.mask = attn::MaskKind::Causal;
  CHECK(attn::receptive_field(s, 10, 1) == 9);
}

TEST_CASE("masks: the closed-form reach equals the walk through the layers, for every window and stride") {
  attn::Scenario s;
  s.x = attn::Mat::Zero(40, 1);
  for (int w = 1; w <= 6; ++w)
    for (int layers = 1; layers <= 8; ++layers) {
      s.mask = attn::MaskKind::SlidingWindow, s.window = w, s.sinks = 0;
      INFO("window " << w << " layers " << layers);
      CHECK(std::min<long long>(attn::window_reach(s, layers), 39) == attn::receptive_field(s, 40, layers));
      s.mask = attn::MaskKind::Strided, s.stride = w;
      const long long reach = attn::window_reach(s, layers);
      const int walked = attn::receptive_field(s, 40, layers);
      INFO("stride " << w);
      // One layer of a stride reaches stride − 1 back locally; the strided
      // keys beyond are seen too, so the walk reports the oldest of them.
      if (reach < 0) CHECK(walked == 39);
      else CHECK(walked == 39 - (39 % w));
    }
}

TEST_CASE("explain: a rotated cell shows its pair's cos/sin arithmetic, a shared key names its head") {
  attn::Scenario s = grouped_scene(11, 4, 2, true);
  s.rope.offset = 4;
  const attn::Trace t = attn::compute_trace(s);
  for (attn::StageKind kind : {attn::StageKind::q_rope, attn::StageKind::k_rope})
    for (int c = 0; c < 4; ++c) {
      const attn::Explanation e = attn::explain(t, s, {kind, 0}, 3, c);
      INFO(e.to_text());
      REQUIRE(e.steps.size() == 4);
      CHECK(std::abs(e.steps.back().result - e.value) <= 1e-12 * std::max(1.0, std::abs(e.value)));
      CHECK(e.note.find("position m = 7") != std::string::npos);
      CHECK(e.sources.size() == 2);
    }
  const attn::Explanation shared = attn::explain(t, s, {attn::StageKind::scores, 1}, 2, 1);
  CHECK(shared.note.find("keys of head 0") != std::string::npos);
  CHECK(shared.sources[1].stage == attn::StageRef{attn::StageKind::k_rope, 0});
  CHECK(std::abs(shared.steps.back().result - shared.value) <= 1e-12);
}

TEST_CASE("validation: each impossible combination gets one message naming it") {
  const attn::Scenario base = grouped_scene(3, 4, 2, true);
  auto message = [&](auto change) {
    attn::Scenario s = base;
    change(s);
    return attn::validate(s);
  };
  CHECK(attn::validate(base) == "");
  CHECK(message([](attn::Scenario& s) { s.n_kv_heads = 3; }) ==
        "n_kv_heads: 3 does not divide the 4 query heads; each key/value head is shared by a whole group of the same size");
  CHECK(message([](attn::Scenario& s) { s.n_kv_heads = -1; }) == "n_kv_heads: must be at least 1, got -1");
  CHECK(message([](attn::Scenario& s) { s.heads[1].w_k = s.heads[0].w_k; }).rfind("heads[1].w_k: head 1 reads the keys and values of head 0", 0) == 0);
  CHECK(message([](attn::Scenario& s) {
          for (auto& h : s.heads) h.w_q.conservativeResize(Eigen::NoChange, 3);
          for (auto& h : s.heads)
            if (h.w_k.size()) h.w_k.conservativeResize(Eigen::NoChange, 3);
        }).rfind("rope: d_k = 3 is odd", 0) == 0);
  CHECK(message([](attn::Scenario& s) { s.rope.fraction = 0.25; }) ==
        "rope.fraction: 0.25 of d_k = 4 rotates 1 dimensions; RoPE needs an even number, at least 2");
  CHECK(message([](attn::Scenario& s) { s.rope.base = 0; }) == "rope.base: must be a number greater than 1, got 0");
  CHECK(message([](attn::Scenario& s) { s.context = s.x; }).rfind("rope: rotary positions need self-attention", 0) == 0);
  CHECK(message([](attn::Scenario& s) { s.mask = attn::MaskKind::SlidingWindow; }) ==
        "mask.window: must be at least 1 (a query always sees itself), got 0");
  CHECK(message([](attn::Scenario& s) { s.mask = attn::MaskKind::SlidingWindow, s.window = 2, s.sinks = 20; }) ==
        "mask.sinks: 20 sink tokens in a sequence of 9 keys");
  CHECK(message([](attn::Scenario& s) { s.mask = attn::MaskKind::Strided; }) == "mask.stride: must be at least 1, got 0");
  attn::Scenario no_heads;
  no_heads.x = attn::Mat::Ones(2, 2);
  no_heads.n_kv_heads = 1;
  CHECK(attn::validate(no_heads).rfind("n_kv_heads: needs heads with projections", 0) == 0);
}
