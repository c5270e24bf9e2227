// Incremental and threaded recomputes against a full single-threaded one:
// hundreds of random edits of every kind on random scenes. Every stage must
// match bit for bit, except head outputs, concat and output in rows a mask
// edit recomputed alone (a one-row product sums in a different order than
// the full matrix product) and an output updated by a few heads' change
// (update.cpp): those are held to 1e-12.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "attn/compute/trace.hpp"
#include "trace_diff.hpp"

namespace {

using attn::Mat;
using trace_diff::check_bit_identical;
using trace_diff::Diff;
using trace_diff::diff;
using trace_diff::random_scene;
using trace_diff::Rng;
using trace_diff::threaded_scene;

// One random edit of the kinds a user makes; returns its name.
std::string random_edit(Rng& r, attn::Scenario& s) {
  switch (r.pick(0, 6)) {
    case 0: s.x(r.pick(0, (int)s.x.rows() - 1), r.pick(0, (int)s.x.cols() - 1)) = r.value(); return "X value";
    case 1: {
      attn::HeadWeights& w = s.heads[(size_t)r.pick(0, (int)s.heads.size() - 1)];
      Mat& m = r.pick(0, 2) == 0 ? w.w_q : (r.pick(0, 1) ? w.w_k : w.w_v);
      m(r.pick(0, (int)m.rows() - 1), r.pick(0, (int)m.cols() - 1)) = r.value();
      return "W value";
    }
    case 2:
      if (!s.w_o) return "nothing";
      if (s.output_bias.size() > 0 && r.pick(0, 2) == 0) {
        s.output_bias(r.pick(0, (int)s.output_bias.size() - 1)) = r.value();
        return "b_O value";
      }
      (*s.w_o)(r.pick(0, (int)s.w_o->rows() - 1), r.pick(0, (int)s.w_o->cols() - 1)) = r.value();
      return "W_O value";
    case 3: case 4:
      if (s.mask != attn::MaskKind::Custom) return "nothing";
      {
        const int i = r.pick(0, (int)s.custom_mask.rows() - 1), j = r.pick(0, (int)s.custom_mask.cols() - 1);
        s.custom_mask(i, j) = !s.custom_mask(i, j);
      }
      return "mask cell";
    case 5:  // the editor's soft cap: on at 2, a new c, or off
      s.softcap = s.softcap > 0 ? (r.pick(0, 1) ? 0.0 : s.softcap * 1.5) : 2.0;
      return "soft cap";
    default:
      s.tokens[(size_t)r.pick(0, (int)s.tokens.size() - 1)] += "'";
      return "rename";
  }
}

}  // namespace

TEST_CASE("update_trace equals a full recompute over random edit sequences") {
  attn::set_compute_threads(1);
  int edits = 0;
  double worst_rounding = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    Rng r(seed);
    attn::Scenario s = random_scene(r);
    attn::Trace t = attn::compute_trace(s);
    for (int e = 0; e < 8; ++e) {
      attn::Scenario next = s;
      const std::string kind = random_edit(r, next);
      attn::Trace updated;
      attn::Trace full;
      bool full_ok = true;
      try {
        full = attn::compute_trace(next);
      } catch (const std::exception&) {
        full_ok = false;
      }
      if (!full_ok) {  // the update must refuse the same edit
        CHECK_THROWS(attn::update_trace(t, s, next));
        continue;
      }
      updated = attn::update_trace(t, s, next);
      const Diff d = diff(updated, full);
      INFO("seed ", seed, " edit ", e, " (", kind, "): ", d.where);
      CHECK(d.structure == "");
      CHECK(d.exact_worst == 0.0);
      CHECK(d.rounding_worst <= 1e-12);
      worst_rounding = std::max(worst_rounding, d.rounding_worst);
      s = next;
      t = updated;  // the next edit builds on the updated trace, so errors would accumulate
      ++edits;
    }
  }
  attn::set_compute_threads(0);
  MESSAGE(edits, " edits; largest rounding difference ", worst_rounding, " (tolerance 1e-12)");
  CHECK(edits >= 400);
}

TEST_CASE("a trace computed on threads equals a single-threaded one bit for bit") {
  // 4 heads split evenly over two threads; 3 leave the last head's row
  // blocks to be shared with the thread that has none (help_board.hpp).
  for (int heads : {4, 3}) {
    INFO(heads << " heads");
    Rng r(7);
    attn::Scenario s = threaded_scene(r, heads, 64);
    s.mask = attn::MaskKind::Causal;
    attn::set_compute_threads(1);
    const attn::Trace one = attn::compute_trace(s);
    attn::set_compute_threads(2);
    const attn::Trace two = attn::compute_trace(s);
    attn::set_compute_threads(0);
    check_bit_identical(two, one);
  }
}

TEST_CASE("one head updated on every core equals a single-threaded full recompute bit for bit") {
  Rng r(8);
  // One edited head gets both cores for its row blocks (run_heads' helpers).
  attn::Scenario s = threaded_scene(r, 3, 32);
  // Rows with every key blocked in two different blocks: their notes and
  // fully-masked lists must come out in row order whatever thread did them.
  s.mask = attn::MaskKind::Custom;
  s.custom_mask = attn::BoolMat::Constant(600, 600, false);
  for (int j = 0; j < 600; ++j) s.custom_mask(3, j) = s.custom_mask(300, j) = s.custom_mask(599, j) = true;
  for (int i = 0; i < 600; i += 7) s.custom_mask(i, (i * 13) % 600) = true;
  attn::set_compute_threads(2);
  const attn::Trace before = attn::compute_trace(s);
  attn::Scenario next = s;
  next.heads[1].w_q(5, 7) += 0.75;
  const attn::Trace updated = attn::update_trace(before, s, next);
  attn::set_compute_threads(1);
  const attn::Trace one = attn::compute_trace(next);
  attn::set_compute_threads(0);
  // The output is updated by head 1's change (update.cpp): to rounding.
  const Diff d = diff(updated, one, {"output"});
  INFO(d.where);
  CHECK(d.structure == "");
  CHECK(d.exact_worst == 0.0);
  CHECK(d.rounding_worst <= 1e-12);
  CHECK(updated.output_drift > 0);
  CHECK(one.find(attn::StageKind::weights, 1)->fully_masked == std::vector<int>{3, 300, 599});
}

TEST_CASE("an output updated by one head's change, edit after edit, stays within 1e-12 of a whole product") {
  Rng r(9);
  attn::Scenario s = threaded_scene(r, 4, 16);
  s.mask = attn::MaskKind::Causal;
  attn::Trace t = attn::compute_trace(s);
  double worst = 0;
  std::string worst_where;
  int updated = 0, whole = 0;
  for (int e = 0; e < 120; ++e) {
    attn::Scenario next = s;
    attn::HeadWeights& w = next.heads[static_cast<size_t>(r.pick(0, 3))];
    Mat& m = e % 3 == 0 ? w.w_q : (e % 3 == 1 ? w.w_k : w.w_v);
    // Edit 60 makes one value of W_V huge and edit 61 puts it back: the
    // output left is small beside what was added and taken away, so it must
    // be computed whole rather than carry that rounding.
    if (e == 60) next.heads[0].w_v(0, 0) = 1e9;
    else if (e == 61) next.heads[0].w_v(0, 0) = r.value();
    else m(r.pick(0, (int)m.rows() - 1), r.pick(0, (int)m.cols() - 1)) = r.value();
    t = attn::update_trace(t, s, next);
    s = next;
    (t.output_drift > 0 ? updated : whole) += 1;
    if (e == 61) CHECK_MESSAGE(t.output_drift == 0.0, "after an edit undone the output kept drift " << t.output_drift);
    const Diff d = diff(t, attn::compute_trace(s), {"output"});
    INFO("edit ", e, ": ", d.where);
    CHECK(d.structure == "");
    CHECK(d.exact_worst == 0.0);
    if (d.rounding_worst > worst) worst = d.rounding_worst, worst_where = "edit " + std::to_string(e) + ": " + d.where;
  }
  MESSAGE(updated, " outputs updated, ", whole, " computed whole; worst relative difference ", worst, " at ", worst_where,
          " (tolerance 1e-12)");
  CHECK(worst <= 1e-12);
  CHECK(updated >= 100);
  CHECK(whole >= 1);
}

namespace {

// Every head's scores are made on demand and none has been made yet.
bool all_scores_waiting(const attn::Trace& t) {
  for (int h = 0; h < t.dims.n_heads; ++h) {
    const auto& m = t.find(attn::StageKind::scores, h)->value.on_demand();
    if (!m || m->made()) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a trace with its scores on demand reads the same as the trace it came from, bit for bit") {
  // Random small scenes (every mask, mode, axis, ALiBi, cross-attention) and
  // a 600-token one whose products have three row blocks, the last short.
  std::vector<attn::Scenario> scenes;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    Rng r(seed);
    scenes.push_back(random_scene(r));
  }
  Rng r(11);
  attn::Scenario big = threaded_scene(r, 3, 32);
  big.mask = attn::MaskKind::Causal;
  big.positional = attn::Positional::Alibi;
  scenes.push_back(big);
  for (size_t i = 0; i < scenes.size(); ++i) {
    const attn::Trace full = attn::compute_trace(scenes[i]);
    const attn::Trace slim = attn::with_scores_on_demand(full, 0);
    INFO("scene ", i);
    REQUIRE(all_scores_waiting(slim));
    // Cell reads and column reads first (they make the scores), then every
    // stage whole through diff().
    for (int h = 0; h < full.dims.n_heads; ++h)
      for (const char* id : {"scores", "masked", "weights"}) {
        const attn::StageValues &a = slim.find_named(id, h)->value, &b = full.find_named(id, h)->value;
        const Eigen::Index last = a.cols() - 1;
        CHECK(a(a.rows() - 1, last) == b(b.rows() - 1, last));
        CHECK(a.col(last) == b.col(last));
        CHECK(a.row(0) == b.row(0));
      }
    for (int h = 0; h < full.dims.n_heads; ++h) CHECK(slim.find(attn::StageKind::scores, h)->value.on_demand()->made());
    check_bit_identical(slim, full);
  }
}

TEST_CASE("scores on demand are made once, whichever thread reads first") {
  Rng r(12);
  attn::Scenario s = threaded_scene(r, 2, 16);
  const attn::Trace full = attn::compute_trace(s);
  const attn::Trace slim = attn::with_scores_on_demand(full, 0);
  REQUIRE(all_scores_waiting(slim));
  const attn::StageValues& w = slim.find(attn::StageKind::weights, 1)->value;
  std::vector<const attn::Mat*> seen(4, nullptr);
  std::vector<double> cell(4, 0);
  std::vector<std::thread> readers;
  for (size_t i = 0; i < seen.size(); ++i)
    readers.emplace_back([&, i] {
      cell[i] = w(599, static_cast<Eigen::Index>(i));
      seen[i] = w.shared().get();
    });
  for (std::thread& t : readers) t.join();
  for (size_t i = 0; i < seen.size(); ++i) {
    CHECK(seen[i] == seen[0]);  // one matrix, made once
    CHECK(cell[i] == full.find(attn::StageKind::weights, 1)->value(599, static_cast<Eigen::Index>(i)));
  }
  CHECK_FALSE(slim.find(attn::StageKind::scores, 0)->value.on_demand()->made());  // head 0 was not read
}

TEST_CASE("scores on demand: only large dot-product scores, and edits of other heads leave them unmade") {
  Rng r(13);
  attn::Scenario s = threaded_scene(r, 3, 16);  // 600 × 600 scores: 2.9 MB a head
  const attn::Trace full = attn::compute_trace(s);
  CHECK(attn::with_scores_on_demand(full, std::size_t{4} << 20).find(attn::StageKind::scores, 0)->value.on_demand() == nullptr);
  const attn::Trace slim = attn::with_scores_on_demand(full, std::size_t{2} << 20);
  REQUIRE(all_scores_waiting(slim));
  // A W_Q edit of head 1 recomputes head 1 and the output; heads 0 and 2
  // keep their scores unmade, and the result equals a full recompute.
  attn::Scenario next = s;
  next.heads[1].w_q(2, 3) += 0.5;
  const attn::Trace updated = attn::update_trace(slim, s, next);
  CHECK_FALSE(updated.find(attn::StageKind::scores, 0)->value.on_demand()->made());
  CHECK_FALSE(updated.find(attn::StageKind::scores, 2)->value.on_demand()->made());
  const Diff d = diff(updated, attn::compute_trace(next), {"output"});
  INFO(d.where);
  CHECK(d.structure == "");
  CHECK(d.exact_worst == 0.0);
  CHECK(d.rounding_worst <= 1e-12);
  // Additive scores are left as they are.
  attn::Scenario additive = s;
  additive.x = attn::Mat(s.x.topRows(20));  // a copy: assigning a block of itself would read freed memory
  additive.score = attn::ScoreFn::Additive;
  CHECK(attn::with_scores_on_demand(attn::compute_trace(additive), 0).find(attn::StageKind::scores, 0)->value.on_demand() == nullptr);
}

TEST_CASE("scores on demand: the head on screen keeps its scores stored, the others are made when read") {
  Rng r(15);
  attn::Scenario s = threaded_scene(r, 3, 16);
  const attn::Trace full = attn::compute_trace(s);
  const attn::Trace slim = attn::with_scores_on_demand(full, 0, 1);
  CHECK(slim.find(attn::StageKind::scores, 1)->value.on_demand() == nullptr);
  CHECK(slim.find(attn::StageKind::scores, 1)->value.shared() == full.find(attn::StageKind::scores, 1)->value.shared());
  for (int h : {0, 2}) {
    INFO("head ", h);
    REQUIRE(slim.find(attn::StageKind::scores, h)->value.on_demand() != nullptr);
    CHECK_FALSE(slim.find(attn::StageKind::scores, h)->value.on_demand()->made());
  }
  check_bit_identical(slim, full);
}

TEST_CASE("recomputes_everything: X, options (the soft cap too) and shapes yes, weights, mask cells and names no") {
  Rng r(14);
  attn::Scenario s;
  s.x = r.mat(5, 4);
  s.tokens = {"a", "b", "c", "d", "e"};
  s.heads.push_back({r.mat(4, 2), r.mat(4, 2), r.mat(4, 2)});
  s.w_o = r.mat(2, 4);
  s.mask = attn::MaskKind::Custom;
  s.custom_mask = attn::BoolMat::Constant(5, 5, false);
  attn::Scenario x = s, temp = s, cap = s, wq = s, wo = s, mask = s, name = s;
  x.x(1, 1) += 1;
  temp.scale = attn::ScaleMode::Temperature;
  cap.softcap = 2;  // an edit of the cap alone was once taken for no change at all
  wq.heads[0].w_q(0, 0) += 1;
  (*wo.w_o)(0, 0) += 1;
  mask.custom_mask(2, 1) = true;
  name.tokens[0] = "z";
  CHECK(attn::recomputes_everything(s, x));
  CHECK(attn::recomputes_everything(s, temp));
  CHECK(attn::recomputes_everything(s, cap));
  CHECK(attn::recomputes_everything(cap, s));
  CHECK_FALSE(attn::recomputes_everything(s, wq));
  CHECK_FALSE(attn::recomputes_everything(s, wo));
  CHECK_FALSE(attn::recomputes_everything(s, mask));
  CHECK_FALSE(attn::recomputes_everything(s, name));
}

TEST_CASE("a long X projected for Q, K and V in one product: updates and threads agree bit for bit, values within 1e-12") {
  // 1100 × 960 doubles is 8.4 MB, past the size where a head's three
  // projections become one product (head_stages.cpp); two narrow heads keep
  // the rest of the trace small.
  Rng r(41);
  attn::Scenario s;
  s.x = r.mat(1100, 960);
  for (int h = 0; h < 2; ++h) s.heads.push_back({r.mat(960, 8), r.mat(960, 8), r.mat(960, 8)});
  s.w_o = r.mat(16, 32);
  s.mask = attn::MaskKind::Causal;
  attn::set_compute_threads(1);
  const attn::Trace one = attn::compute_trace(s);
  attn::set_compute_threads(0);
  check_bit_identical(attn::compute_trace(s), one);
  // Each projection against Eigen's own product of X and that weight.
  for (int h = 0; h < 2; ++h)
    for (const char* id : {"q", "k", "v"}) {
      const attn::HeadWeights& w = s.heads[static_cast<size_t>(h)];
      const Mat& weight = id[0] == 'q' ? w.w_q : id[0] == 'k' ? w.w_k : w.w_v;
      const Mat want = s.x * weight;
      const Mat got = one.find_named(id, h)->value.dense();
      Eigen::Index wr = 0, wc = 0;
      const double worst = ((got - want).array().abs() / want.array().abs().max(1.0)).maxCoeff(&wr, &wc);
      INFO(std::string(id), " head ", h, ": worst (", wr, ", ", wc, "): error ", worst);
      CHECK(worst <= 1e-12);
    }
  attn::Scenario next = s;
  next.heads[1].w_k(7, 3) += 0.5;
  attn::set_compute_threads(1);
  const attn::Trace fresh = attn::compute_trace(next);
  attn::set_compute_threads(0);
  const Diff d = diff(attn::update_trace(one, s, next), fresh, {"output"});
  INFO(d.where);
  CHECK(d.structure == "");
  CHECK(d.exact_worst == 0.0);
  CHECK(d.rounding_worst <= 1e-12);
}
