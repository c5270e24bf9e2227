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

#include "attn/trace.hpp"

namespace {

using attn::Mat;

struct Rng {
  std::mt19937 g;
  explicit Rng(unsigned seed) : g(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); }
  double value() { return std::normal_distribution<double>(0, 1)(g); }
  Mat mat(int r, int c) {
    Mat m(r, c);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = value();
    return m;
  }
};

attn::Scenario random_scene(Rng& r) {
  attn::Scenario s;
  const int n = r.pick(2, 9), d = r.pick(2, 6), heads = r.pick(1, 3), dk = r.pick(1, 4);
  s.x = r.mat(n, d);
  for (int i = 0; i < n; ++i) s.tokens.push_back("w" + std::to_string(i));
  int d_ctx = d;
  if (r.pick(0, 3) == 0) {
    const int m = r.pick(2, 7);
    d_ctx = r.pick(2, 5);
    s.context = r.mat(m, d_ctx);
  }
  for (int h = 0; h < heads; ++h) s.heads.push_back({r.mat(d, dk), r.mat(d_ctx, dk), r.mat(d_ctx, dk)});
  if (r.pick(0, 1)) s.w_o = r.mat(heads * dk, r.pick(2, 5));
  const int nk = s.context ? static_cast<int>(s.context->rows()) : n;
  s.mask = r.pick(0, 2) ? attn::MaskKind::Custom : (s.context ? attn::MaskKind::None : attn::MaskKind::Causal);
  if (s.mask == attn::MaskKind::Custom) {
    s.custom_mask = attn::BoolMat::Constant(n, nk, false);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < nk; ++j) s.custom_mask(i, j) = r.pick(0, 3) == 0;
  }
  s.mask_mode = r.pick(0, 3) ? attn::MaskMode::BeforeSoftmax : attn::MaskMode::AfterSoftmax;
  s.softmax_axis = r.pick(0, 4) ? attn::SoftmaxAxis::Keys : attn::SoftmaxAxis::Queries;
  if (!s.context && r.pick(0, 3) == 0) s.positional = attn::Positional::Alibi;
  return s;
}

// One random edit of the kinds a user makes; returns its name.
std::string random_edit(Rng& r, attn::Scenario& s) {
  switch (r.pick(0, 5)) {
    case 0: s.x(r.pick(0, (int)s.x.rows() - 1), r.pick(0, (int)s.x.cols() - 1)) = r.value(); return "X value";
    case 1: {
      attn::HeadWeights& w = s.heads[(size_t)r.pick(0, (int)s.heads.size() - 1)];
      Mat& m = r.pick(0, 2) == 0 ? w.w_q : (r.pick(0, 1) ? w.w_k : w.w_v);
      m(r.pick(0, (int)m.rows() - 1), r.pick(0, (int)m.cols() - 1)) = r.value();
      return "W value";
    }
    case 2:
      if (!s.w_o) return "nothing";
      (*s.w_o)(r.pick(0, (int)s.w_o->rows() - 1), r.pick(0, (int)s.w_o->cols() - 1)) = r.value();
      return "W_O value";
    case 3: case 4:
      if (s.mask != attn::MaskKind::Custom) return "nothing";
      {
        const int i = r.pick(0, (int)s.custom_mask.rows() - 1), j = r.pick(0, (int)s.custom_mask.cols() - 1);
        s.custom_mask(i, j) = !s.custom_mask(i, j);
      }
      return "mask cell";
    default:
      s.tokens[(size_t)r.pick(0, (int)s.tokens.size() - 1)] += "'";
      return "rename";
  }
}

// Worst difference between two traces, with where it is, and any structural difference.
struct Diff {
  std::string structure;  // empty when ids, labels, masks and notes agree
  double exact_worst = 0;  // stages that must be bit-identical
  double rounding_worst = 0;  // head_output, concat, output
  std::string where;
};

// `may_round`: the stages allowed to differ by rounding.
Diff diff(const attn::Trace& got, const attn::Trace& want,
          const std::vector<std::string>& may_round = {"head_output", "concat", "output"}) {
  Diff d;
  if (got.stages.size() != want.stages.size()) d.structure = "stage count differs";
  if (got.notes != want.notes) d.structure = "notes differ";
  for (size_t k = 0; k < std::min(got.stages.size(), want.stages.size()) && d.structure.empty(); ++k) {
    const attn::Stage &a = got.stages[k], &b = want.stages[k];
    if (a.id != b.id || a.head != b.head || a.row_labels != b.row_labels || a.col_labels != b.col_labels ||
        a.fully_masked != b.fully_masked || a.blocked.mat() != b.blocked.mat()) {
      d.structure = "stage " + b.id + " head " + std::to_string(b.head) + ": id, labels or mask differ";
      break;
    }
    const Mat x = a.value.dense(), y = b.value.dense();
    if (x.rows() != y.rows() || x.cols() != y.cols()) {
      d.structure = "stage " + b.id + ": shape differs";
      break;
    }
    const bool rounding = std::find(may_round.begin(), may_round.end(), b.id) != may_round.end();
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double e = x(i, j) == y(i, j) ? 0.0 : std::abs(x(i, j) - y(i, j)) / std::max(1.0, std::abs(y(i, j)));
        double& worst = rounding ? d.rounding_worst : d.exact_worst;
        if (e > worst || std::isnan(e)) {
          worst = std::isnan(e) ? INFINITY : e;
          std::ostringstream w;
          w.precision(17);
          w << b.id << " head " << b.head << " (" << i << ", " << j << "): got " << x(i, j) << " want " << y(i, j);
          d.where = w.str();
        }
      }
  }
  for (size_t h = 0; h < want.softmax.size() && d.structure.empty(); ++h)
    if (got.softmax[h].max != want.softmax[h].max || got.softmax[h].sum != want.softmax[h].sum)
      d.structure = "softmax statistics of head " + std::to_string(h) + " differ";
  return d;
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

namespace {

// 600 tokens: big enough that heads go to threads (head_pool.cpp), with three
// row blocks of the products, the last one short (head_pool.hpp).
attn::Scenario threaded_scene(Rng& r, int heads, int d_k) {
  attn::Scenario s;
  s.x = r.mat(600, 64);
  for (int h = 0; h < heads; ++h) s.heads.push_back({r.mat(64, d_k), r.mat(64, d_k), r.mat(64, d_k)});
  s.w_o = r.mat(heads * d_k, 64);
  return s;
}

void check_bit_identical(const attn::Trace& got, const attn::Trace& want) {
  const Diff d = diff(got, want);
  INFO(d.where);
  CHECK(d.structure == "");
  CHECK(d.exact_worst == 0.0);
  CHECK(d.rounding_worst == 0.0);
}

}  // namespace

TEST_CASE("a trace computed on threads equals a single-threaded one bit for bit") {
  Rng r(7);
  attn::Scenario s = threaded_scene(r, 4, 64);
  s.mask = attn::MaskKind::Causal;
  attn::set_compute_threads(1);
  const attn::Trace one = attn::compute_trace(s);
  attn::set_compute_threads(2);
  const attn::Trace two = attn::compute_trace(s);
  attn::set_compute_threads(0);
  check_bit_identical(two, one);
}

TEST_CASE("one head updated on every core equals a single-threaded full recompute bit for bit") {
  Rng r(8);
  // One edited head gets both cores for its row blocks (threads_inside_heads).
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
  CHECK(one.find("weights", 1)->fully_masked == std::vector<int>{3, 300, 599});
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
    const auto& m = t.find("scores", h)->value.on_demand();
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
        const attn::StageValues &a = slim.find(id, h)->value, &b = full.find(id, h)->value;
        const Eigen::Index last = a.cols() - 1;
        CHECK(a(a.rows() - 1, last) == b(b.rows() - 1, last));
        CHECK(a.col(last) == b.col(last));
        CHECK(a.row(0) == b.row(0));
      }
    for (int h = 0; h < full.dims.n_heads; ++h) CHECK(slim.find("scores", h)->value.on_demand()->made());
    check_bit_identical(slim, full);
  }
}

TEST_CASE("scores on demand are made once, whichever thread reads first") {
  Rng r(12);
  attn::Scenario s = threaded_scene(r, 2, 16);
  const attn::Trace full = attn::compute_trace(s);
  const attn::Trace slim = attn::with_scores_on_demand(full, 0);
  REQUIRE(all_scores_waiting(slim));
  const attn::StageValues& w = slim.find("weights", 1)->value;
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
    CHECK(cell[i] == full.find("weights", 1)->value(599, static_cast<Eigen::Index>(i)));
  }
  CHECK_FALSE(slim.find("scores", 0)->value.on_demand()->made());  // head 0 was not read
}

TEST_CASE("scores on demand: only large dot-product scores, and edits of other heads leave them unmade") {
  Rng r(13);
  attn::Scenario s = threaded_scene(r, 3, 16);  // 600 × 600 scores: 2.9 MB a head
  const attn::Trace full = attn::compute_trace(s);
  CHECK(attn::with_scores_on_demand(full, std::size_t{4} << 20).find("scores", 0)->value.on_demand() == nullptr);
  const attn::Trace slim = attn::with_scores_on_demand(full, std::size_t{2} << 20);
  REQUIRE(all_scores_waiting(slim));
  // A W_Q edit of head 1 recomputes head 1 and the output; heads 0 and 2
  // keep their scores unmade, and the result equals a full recompute.
  attn::Scenario next = s;
  next.heads[1].w_q(2, 3) += 0.5;
  const attn::Trace updated = attn::update_trace(slim, s, next);
  CHECK_FALSE(updated.find("scores", 0)->value.on_demand()->made());
  CHECK_FALSE(updated.find("scores", 2)->value.on_demand()->made());
  const Diff d = diff(updated, attn::compute_trace(next), {"output"});
  INFO(d.where);
  CHECK(d.structure == "");
  CHECK(d.exact_worst == 0.0);
  CHECK(d.rounding_worst <= 1e-12);
  // Additive scores are left as they are.
  attn::Scenario additive = s;
  additive.x = attn::Mat(s.x.topRows(20));  // a copy: assigning a block of itself would read freed memory
  additive.score = attn::ScoreFn::Additive;
  CHECK(attn::with_scores_on_demand(attn::compute_trace(additive), 0).find("scores", 0)->value.on_demand() == nullptr);
}

TEST_CASE("recomputes_everything: X, options and shapes yes; weights, mask cells and names no") {
  Rng r(14);
  attn::Scenario s;
  s.x = r.mat(5, 4);
  s.tokens = {"a", "b", "c", "d", "e"};
  s.heads.push_back({r.mat(4, 2), r.mat(4, 2), r.mat(4, 2)});
  s.w_o = r.mat(2, 4);
  s.mask = attn::MaskKind::Custom;
  s.custom_mask = attn::BoolMat::Constant(5, 5, false);
  attn::Scenario x = s, temp = s, wq = s, wo = s, mask = s, name = s;
  x.x(1, 1) += 1;
  temp.scale = attn::ScaleMode::Temperature;
  wq.heads[0].w_q(0, 0) += 1;
  (*wo.w_o)(0, 0) += 1;
  mask.custom_mask(2, 1) = true;
  name.tokens[0] = "z";
  CHECK(attn::recomputes_everything(s, x));
  CHECK(attn::recomputes_everything(s, temp));
  CHECK_FALSE(attn::recomputes_everything(s, wq));
  CHECK_FALSE(attn::recomputes_everything(s, wo));
  CHECK_FALSE(attn::recomputes_everything(s, mask));
  CHECK_FALSE(attn::recomputes_everything(s, name));
}
