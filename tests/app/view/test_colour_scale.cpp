// Colour ranges: per grid, global across stages, shared across heads, per
// row (masked cells left out), the log floor, the legend's numbers and the
// ends for non-finite values. Expected coordinates are worked out here from
// the definitions, not read back from the code under test.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "attn/attn.hpp"
#include "scenes.hpp"
#include "model/colour/colour_scale.hpp"

using namespace model;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

attn::Stage stage(attn::StageKind id, int head, attn::ValueKind kind, const attn::Mat& value) {
  attn::Stage s;
  s.id = id;
  s.head = head;
  s.kind = kind;
  s.value = value;
  return s;
}

attn::Mat mat(int rows, int cols, std::initializer_list<double> values) {
  attn::Mat m(rows, cols);
  auto it = values.begin();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m(r, c) = *it++;
  return m;
}

// Every cell of a stage against expected(row, value); reports the worst.
template <typename Expected>
void check_all(const ColourScale& scale, const attn::Stage& s, Expected expected) {
  double worst = 0;
  int wr = -1, wc = -1;
  for (int r = 0; r < s.value.rows(); ++r)
    for (int c = 0; c < s.value.cols(); ++c) {
      const double d = std::abs(coordinate(scale, r, s.value(r, c)) - expected(r, s.value(r, c)));
      if (d > worst) worst = d, wr = r, wc = c;
    }
  INFO(s.id << ": worst cell (" << wr << ", " << wc << ") off by " << worst);
  CHECK(worst < 1e-6);
}

ColourOptions options(Contrast contrast, ColourmapId prob_map = ColourmapId::SingleHue) {
  ColourOptions o;
  o.contrast = contrast;
  o.probability_map = prob_map;
  return o;
}

}  // namespace

TEST_CASE("per grid: signed values are symmetric about zero by the grid's largest magnitude, probabilities 0..1") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::q, 0, attn::ValueKind::Signed, mat(2, 2, {1.0, -3.0, -kInf, 0.5})));
  t.stages.push_back(stage(attn::StageKind::weights, 0, attn::ValueKind::Probability, mat(1, 3, {0.2, 0.3, 0.5})));
  const std::vector<ColourScale> s = colour_scales(t, options(Contrast::Grid));
  REQUIRE(s.size() == 2);
  CHECK(s[0].range.hi == doctest::Approx(3.0));  // −∞ (a masked logit) does not count
  CHECK(s[0].range.lo == doctest::Approx(-3.0));
  check_all(s[0], t.stages[0], [](int, double v) { return std::isinf(v) ? 0.0 : 0.5 + v / 6.0; });
  check_all(s[1], t.stages[1], [](int, double v) { return v; });
  // A diverging map shows probabilities on its white-to-one-hue half.
  const std::vector<ColourScale> d = colour_scales(t, options(Contrast::Grid, ColourmapId::BlueWhiteOrange));
  check_all(d[1], t.stages[1], [](int, double v) { return 0.5 + 0.5 * v; });
}

TEST_CASE("global: every signed grid shares one range, across two stages") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::x, -1, attn::ValueKind::Signed, mat(1, 2, {2.0, -1.0})));
  t.stages.push_back(stage(attn::StageKind::scores, 0, attn::ValueKind::Signed, mat(1, 2, {-5.0, 4.0})));
  const std::vector<ColourScale> grid = colour_scales(t, options(Contrast::Grid));
  CHECK(grid[0].range.hi == doctest::Approx(2.0));
  CHECK(grid[1].range.hi == doctest::Approx(5.0));
  const std::vector<ColourScale> global = colour_scales(t, options(Contrast::Global));
  CHECK(global[0].range.hi == doctest::Approx(5.0));
  CHECK(global[1].range.hi == doctest::Approx(5.0));
  check_all(global[0], t.stages[0], [](int, double v) { return 0.5 + v / 10.0; });
  CHECK(legend_of(global[0]).note == "all grids");
}

TEST_CASE("shared range: every head's grid of one stage shares it, other stages keep their own") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::scores, 0, attn::ValueKind::Signed, mat(1, 2, {1.0, -2.0})));
  t.stages.push_back(stage(attn::StageKind::scores, 1, attn::ValueKind::Signed, mat(1, 2, {8.0, 0.0})));
  t.stages.push_back(stage(attn::StageKind::x, -1, attn::ValueKind::Signed, mat(1, 2, {0.5, 0.25})));
  ColourOptions o = options(Contrast::Grid);
  o.shared_range = true;
  const std::vector<ColourScale> s = colour_scales(t, o);
  CHECK(s[0].range.hi == doctest::Approx(8.0));
  CHECK(s[1].range.hi == doctest::Approx(8.0));
  CHECK(s[2].range.hi == doctest::Approx(0.5));
  CHECK(s[0].shared);
  CHECK_FALSE(s[2].shared);  // one grid alone: its legend does not claim "all heads"
  CHECK(legend_of(s[0]).note == "all heads");
}

TEST_CASE("per row: each row of weights spans the whole map, masked cells are left out") {
  // A causal 3 x 3 softmax: row 0 has one open cell; rows 1 and 2 tiny, uneven weights.
  attn::Stage w = stage(attn::StageKind::weights, 0, attn::ValueKind::Probability,
                        mat(3, 3, {1.0, 0.0, 0.0, 0.0008, 0.0012, 0.0, 0.0009, 0.0010, 0.0011}));
  attn::BoolMat blocked(3, 3);
  blocked << false, true, true, false, false, true, false, false, false;
  w.blocked = blocked;
  attn::Trace t;
  t.stages.push_back(w);
  const std::vector<ColourScale> s = colour_scales(t, options(Contrast::Row));
  REQUIRE(s[0].rows.size() == 3);
  const double lo[3] = {0, 0.0008, 0.0009}, hi[3] = {1.0, 0.0012, 0.0011};  // row 0: one value, shown at full strength
  for (int r = 0; r < 3; ++r) {
    CHECK(s[0].rows[static_cast<size_t>(r)].lo == doctest::Approx(lo[r]));
    CHECK(s[0].rows[static_cast<size_t>(r)].hi == doctest::Approx(hi[r]));
  }
  CHECK(coordinate(s[0], 1, 0.0008) == doctest::Approx(0.0));
  CHECK(coordinate(s[0], 1, 0.0012) == doctest::Approx(1.0));
  CHECK(coordinate(s[0], 2, 0.0010) == doctest::Approx(0.5));
  CHECK(coordinate(s[0], 0, 1.0) == doctest::Approx(1.0));
  // Per grid, the same tiny weights are all but white.
  const std::vector<ColourScale> g = colour_scales(t, options(Contrast::Grid));
  CHECK(coordinate(g[0], 1, 0.0012) < 0.002);
  const Legend l = legend_of(s[0]);
  CHECK(l.lo == "min");
  CHECK(l.hi == "max");
  CHECK(l.note == "of each row");
}

TEST_CASE("per row, signed: each row by its own largest magnitude, zero still in the middle") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::scores, 0, attn::ValueKind::Signed, mat(2, 3, {1.0, -2.0, 0.5, 40.0, 10.0, -20.0})));
  const std::vector<ColourScale> s = colour_scales(t, options(Contrast::Row));
  const double m[2] = {2.0, 40.0};
  check_all(s[0], t.stages[0], [&](int r, double v) { return 0.5 + 0.5 * v / m[r]; });
  CHECK(coordinate(s[0], 0, 0.0) == doctest::Approx(0.5));
  CHECK(coordinate(s[0], 1, 0.0) == doctest::Approx(0.5));
}

TEST_CASE("per row and shared: row r of every head's weights pools into one range") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::weights, 0, attn::ValueKind::Probability, mat(1, 2, {0.4, 0.6})));
  t.stages.push_back(stage(attn::StageKind::weights, 1, attn::ValueKind::Probability, mat(1, 2, {0.1, 0.9})));
  ColourOptions o = options(Contrast::Row);
  o.shared_range = true;
  const std::vector<ColourScale> s = colour_scales(t, o);
  for (const ColourScale& sc : s) {
    CHECK(sc.rows[0].lo == doctest::Approx(0.1));
    CHECK(sc.rows[0].hi == doctest::Approx(0.9));
  }
  CHECK(coordinate(s[0], 0, 0.5) == doctest::Approx(0.5));
}

TEST_CASE("log scale: log10 from the floor 1e-6 to the top of the range") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::weights, 0, attn::ValueKind::Probability, mat(1, 4, {1e-9, 1e-6, 1e-3, 1.0})));
  ColourOptions o = options(Contrast::Grid);
  o.log_weights = true;
  const ColourScale s = colour_scales(t, o)[0];
  CHECK(s.log);
  check_all(s, t.stages[0], [](int, double v) { return std::max(0.0, (std::log10(v) + 6.0) / 6.0); });
  CHECK(coordinate(s, 0, 0.0) == doctest::Approx(0.0));  // at or below the floor: the lightest colour
  const Legend l = legend_of(s);
  CHECK(l.lo == "1e-06");
  CHECK(l.hi == "1");
  CHECK(l.note == "log scale");
  // Per row: from the row's own minimum (above the floor) to its maximum.
  o.contrast = Contrast::Row;
  const ColourScale r = colour_scales(t, o)[0];
  CHECK(coordinate(r, 0, 1e-6) == doctest::Approx(0.0));  // the row minimum (1e-9) is below the floor
  CHECK(coordinate(r, 0, 1e-3) == doctest::Approx(0.5));
  // Signed stages never take the log scale.
  t.stages.push_back(stage(attn::StageKind::scores, 0, attn::ValueKind::Signed, mat(1, 2, {-1.0, 1.0})));
  o.contrast = Contrast::Grid;
  CHECK_FALSE(colour_scales(t, o)[1].log);
}

TEST_CASE("legend: min, zero and max of the range in use") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::q, 0, attn::ValueKind::Signed, mat(1, 2, {2.5, -1.0})));
  t.stages.push_back(stage(attn::StageKind::weights, 0, attn::ValueKind::Probability, mat(1, 2, {0.25, 0.75})));
  const std::vector<ColourScale> s = colour_scales(t, options(Contrast::Grid));
  const Legend q = legend_of(s[0]);
  CHECK(q.lo == "-2.5");
  CHECK(q.zero == "0");
  CHECK(q.hi == "2.5");
  CHECK(q.zero_u == doctest::Approx(0.5));
  CHECK(q.note.empty());
  const Legend w = legend_of(s[1]);
  CHECK(w.lo == "0");
  CHECK(w.hi == "1");
  CHECK(w.u0 == doctest::Approx(0.0));
}

TEST_CASE("non-finite values take an end, never NaN, flat and empty grids stay divisible") {
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::scores, 0, attn::ValueKind::Signed, mat(1, 2, {0.0, 0.0})));
  t.stages.push_back(stage(attn::StageKind::weights, 0, attn::ValueKind::Probability, mat(1, 2, {0.0, 0.0})));
  for (Contrast c : {Contrast::Global, Contrast::Grid, Contrast::Row}) {
    const std::vector<ColourScale> s = colour_scales(t, options(c));
    CHECK(s[0].range.hi == doctest::Approx(1.0));
    CHECK(coordinate(s[0], 0, kInf) == doctest::Approx(1.0));
    CHECK(coordinate(s[0], 0, -kInf) == doctest::Approx(0.0));
    CHECK(coordinate(s[0], 0, std::nan("")) == doctest::Approx(0.5));
    CHECK(std::isfinite(coordinate(s[1], 0, 0.0)));
    CHECK(std::isfinite(coordinate(s[1], 0, std::nan(""))));
  }
}

namespace {

// Every row's range by reading each cell: the definition row_ranges scans
// by. Counted: finite values that are not a blocked zero probability;
// signed rows are symmetric about 0 by their largest |value|.
std::vector<ValueRange> scanned_ranges(const attn::Stage& s) {
  std::vector<ValueRange> out(static_cast<size_t>(s.value.rows()), ValueRange{kInf, -kInf});
  const bool signed_values = s.kind == attn::ValueKind::Signed;
  for (int r = 0; r < s.value.rows(); ++r) {
    ValueRange& g = out[static_cast<size_t>(r)];
    for (int c = 0; c < s.value.cols(); ++c) {
      const double v = s.value(r, c);
      if (!std::isfinite(v) || (!signed_values && s.is_blocked(r, c) && v == 0)) continue;
      g.lo = std::min(g.lo, signed_values ? -std::abs(v) : v);
      g.hi = std::max(g.hi, signed_values ? std::abs(v) : v);
    }
  }
  return out;
}

attn::Scenario random_heads_scene(unsigned seed, int n, int heads) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  auto random = [&](int rows, int cols) { return attn::Mat(attn::Mat::NullaryExpr(rows, cols, [&] { return u(g); })); };
  attn::Scenario s;
  s.x = random(n, 8);
  for (int h = 0; h < heads; ++h) s.heads.push_back({random(8, 4), random(8, 4), random(8, 3)});
  s.w_o = random(heads * 3, 8);
  return s;
}

}  // namespace

TEST_CASE("derived ranges (scaled, masked, weights) equal a scan of every cell: masks, ties and underflow included") {
  struct Case {
    const char* name;
    std::function<void(attn::Scenario&)> set;
  };
  const std::vector<Case> cases = {
      {"no mask", [](attn::Scenario&) {}},
      {"causal", [](attn::Scenario& s) { s.mask = attn::MaskKind::Causal; }},
      {"custom, a fully masked row",
       [](attn::Scenario& s) {
         s.mask = attn::MaskKind::Custom;
         s.custom_mask = attn::BoolMat::Constant(s.x.rows(), s.x.rows(), false);
         s.custom_mask.row(2).setConstant(true);
         for (int i = 0; i < s.x.rows(); i += 3) s.custom_mask(i, (i * 7) % s.x.rows()) = true;
       }},
      {"padded keys", [](attn::Scenario& s) { s.key_padding.assign(static_cast<size_t>(s.x.rows()), false), s.key_padding.back() = true; }},
      // The bias keeps the biased and masked logits to the scan; the weights still go the short way.
      {"ALiBi, causal", [](attn::Scenario& s) { s.positional = attn::Positional::Alibi, s.mask = attn::MaskKind::Causal; }},
      // Tied logits: tokens 1 and 4 are the same vector, so are their keys.
      {"tied keys", [](attn::Scenario& s) { s.x.row(4) = s.x.row(1); }},
      // A small temperature (not a power of two): most weights underflow to exactly 0, and count.
      {"underflow to zero",
       [](attn::Scenario& s) { s.scale = attn::ScaleMode::Temperature, s.temperature = 0.003; }},
  };
  int shortcuts = 0;
  for (const Case& c : cases)
    for (unsigned seed = 1; seed <= 8; ++seed) {
      attn::Scenario s = random_heads_scene(seed, 13, 2);
      c.set(s);
      REQUIRE(attn::validate(s) == "");
      const attn::Trace t = attn::compute_trace(s);
      const RowRanges all = trace_row_ranges(t);
      for (size_t i = 0; i < t.stages.size(); ++i) {
        const attn::Stage& st = t.stages[i];
        std::vector<ValueRange> fast;
        // ALiBi's bias grid is an identity derivation of the bias matrix; a
        // logit with the bias added ("biased", then "masked") is scanned.
        const bool expected = st.id == attn::StageKind::weights || st.id == attn::StageKind::alibi ||
                              ((st.id == attn::StageKind::scaled || st.id == attn::StageKind::masked) && !st.value.derivation().bias);
        const std::string what = std::string(c.name) + ": " + attn::to_string(st.id);
        CHECK_MESSAGE(derived_row_ranges(st, fast) == expected, what);
        if (fast.empty()) continue;
        ++shortcuts;
        const std::vector<ValueRange> want = scanned_ranges(st);
        REQUIRE(fast.size() == want.size());
        for (size_t r = 0; r < want.size(); ++r) {
          INFO(std::string(c.name) << ", seed " << seed << ", " << st.id << " head " << st.head << ", row " << r
                                   << ": got " << fast[r].lo << ".." << fast[r].hi << ", scan " << want[r].lo << ".."
                                   << want[r].hi);
          CHECK(fast[r].lo == want[r].lo);
          CHECK(fast[r].hi == want[r].hi);
          CHECK(all[i][r].lo == want[r].lo);  // trace_row_ranges goes through it
          CHECK(all[i][r].hi == want[r].hi);
        }
      }
    }
  CHECK(shortcuts == 7 * 3 * 8 * 2);
}

TEST_CASE("derived ranges: stages the shortcuts do not cover are left to the scan") {
  attn::Scenario s = random_heads_scene(3, 6, 1);
  s.mask = attn::MaskKind::Causal;
  s.mask_mode = attn::MaskMode::AfterSoftmax;  // weights = softmax zeroed where blocked: no softmax derivation
  const attn::Trace t = attn::compute_trace(s);
  std::vector<ValueRange> out;
  CHECK_FALSE(derived_row_ranges(*t.find(attn::StageKind::weights, 0), out));
  CHECK_FALSE(derived_row_ranges(*t.find(attn::StageKind::scores, 0), out));  // stored
  s.mask_mode = attn::MaskMode::BeforeSoftmax;
  s.softmax_axis = attn::SoftmaxAxis::Queries;
  CHECK_FALSE(derived_row_ranges(*attn::compute_trace(s).find(attn::StageKind::weights, 0), out));
  CHECK(out.empty());
}

TEST_CASE("colour scale: weights over many keys with flat rows are coloured per row at the per-grid contrast, and the legend says so") {
  attn::Scenario flat;
  flat.x = attn::Mat::Random(300, 8) * 0.1;  // scores near 0: every row about 1/300
  const attn::Trace t = attn::compute_trace(flat);
  const attn::Stage& w = *t.find(attn::StageKind::weights, 0);
  const std::vector<model::ColourScale> scales = model::colour_scales(t, model::ColourOptions{});
  const model::ColourScale& sc = scales[static_cast<size_t>(t.index_of({attn::StageKind::weights, 0}))];
  CHECK(sc.auto_row);
  CHECK(sc.contrast == model::Contrast::Row);
  REQUIRE(sc.rows.size() == 300);
  // Each row spans its own min..max: row 0's largest weight takes the top colour.
  double peak = 0;
  for (Eigen::Index c = 0; c < w.value.cols(); ++c) peak = std::max(peak, w.value(0, c));
  CHECK(peak < 0.02);
  CHECK(model::coordinate(sc, 0, peak) == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(model::legend_of(sc).note.find("each row") != std::string::npos);
  // A short scene keeps one 0..1 range per grid; so does a chosen contrast.
  const attn::Trace small = attn::compute_trace(test_scenes::small_projected());
  const std::vector<model::ColourScale> small_scales = model::colour_scales(small, model::ColourOptions{});
  const model::ColourScale& s4 = small_scales[static_cast<size_t>(small.index_of({attn::StageKind::weights, 0}))];
  CHECK_FALSE(s4.auto_row);
  CHECK(s4.range.lo == 0);
  CHECK(s4.range.hi == 1);
  model::ColourOptions global;
  global.contrast = model::Contrast::Global;
  const std::vector<model::ColourScale> global_scales = model::colour_scales(t, global);
  CHECK_FALSE(global_scales[static_cast<size_t>(t.index_of({attn::StageKind::weights, 0}))].auto_row);
}

TEST_CASE("p99: a grid's range ends at the 99th percentile of |v| by nearest rank, and only the cells past it are beyond") {
  // 300 values: |v| = 0.01 .. 3.00 with alternating signs, then three huge
  // ones, a −∞ (a masked logit) and a NaN, which do not count.
  std::vector<double> values;
  for (int k = 1; k <= 300; ++k) values.push_back((k % 2 ? 1 : -1) * 0.01 * k);
  for (double v : {500.0, -800.0, 1200.0, -kInf, std::nan("")}) values.push_back(v);
  std::mt19937 rng(7);
  std::shuffle(values.begin(), values.end(), rng);
  attn::Mat m(5, 61);
  for (int i = 0; i < 305; ++i) m(i / 61, i % 61) = values[static_cast<size_t>(i)];
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::head_output, 0, attn::ValueKind::Signed, m));
  // The reference: sort the 303 finite magnitudes and take rank ceil(0.99 · 303) = 300.
  std::vector<double> mags;
  for (double v : values)
    if (std::isfinite(v)) mags.push_back(std::abs(v));
  std::sort(mags.begin(), mags.end());
  const double expected = mags[static_cast<size_t>(std::ceil(0.99 * static_cast<double>(mags.size()))) - 1];
  CHECK(expected == doctest::Approx(3.0));
  const std::vector<ColourScale> s = colour_scales(t, options(Contrast::Percentile));
  REQUIRE(s[0].robust);
  CHECK(s[0].range.hi == doctest::Approx(expected));
  CHECK(s[0].range.lo == doctest::Approx(-expected));
  int marked = 0;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 61; ++c) {
      const double v = m(r, c);
      const bool past = std::isfinite(v) && std::abs(v) > expected;
      CHECK_MESSAGE(beyond(s[0], r, v) == past, "cell (" << r << ", " << c << ") = " << v);
      marked += beyond(s[0], r, v);
    }
  CHECK(marked == 3);
  // The cells past the range take its end colours; the rest spread over the whole map.
  check_all(s[0], t.stages[0], [&](int, double v) {
    return std::isnan(v) ? 0.5 : 0.5 + 0.5 * std::clamp(v / expected, -1.0, 1.0);
  });
  const Legend l = legend_of(s[0]);
  CHECK(l.note.find("99th percentile") != std::string::npos);
  // Per grid, the same grid is washed out by its 1200: 3.0 sits at 0.5 + 0.00125.
  const std::vector<ColourScale> plain = colour_scales(t, options(Contrast::Grid));
  CHECK(plain[0].range.hi == doctest::Approx(1200.0));
  CHECK_FALSE(plain[0].robust);
  CHECK_FALSE(beyond(plain[0], 0, 1200.0));
}

TEST_CASE("p99: probabilities run from 0 to their 99th percentile, blocked cells left out, shared across heads when asked") {
  // Head 0: 200 weights, 198 of 0.001 and two of 0.5; head 1: all 0.002.
  attn::Mat w0 = attn::Mat::Constant(2, 100, 0.001), w1 = attn::Mat::Constant(2, 100, 0.002);
  w0(0, 3) = 0.5;
  w0(1, 7) = 0.5;
  attn::Trace t;
  t.stages.push_back(stage(attn::StageKind::weights, 0, attn::ValueKind::Probability, w0));
  t.stages.push_back(stage(attn::StageKind::weights, 1, attn::ValueKind::Probability, w1));
  // Head 1's first 60 cells are blocked, holding a value that must not count.
  attn::Mat v1 = w1;
  attn::BoolMat mask = attn::BoolMat::Constant(2, 100, false);
  for (int c = 0; c < 60; ++c) v1(0, c) = 0.9, mask(0, c) = true;
  t.stages[1].value = v1;
  t.stages[1].blocked = attn::SharedMask(mask);
  const std::vector<ColourScale> s = colour_scales(t, options(Contrast::Percentile));
  // Rank ceil(0.99 · 200) = 198 of head 0's sorted weights: still 0.001.
  CHECK(s[0].range.lo == 0.0);
  CHECK(s[0].range.hi == doctest::Approx(0.001));
  CHECK(beyond(s[0], 0, 0.5));
  CHECK_FALSE(beyond(s[0], 0, 0.001));
  CHECK(s[1].range.hi == doctest::Approx(0.002));  // the blocked 0.9 is not counted
  ColourOptions o = options(Contrast::Percentile);
  o.shared_range = true;
  const std::vector<ColourScale> shared = colour_scales(t, o);
  // Pooled: 200 + 140 unblocked values, rank ceil(0.99 · 340) = 337: 0.002.
  CHECK(shared[0].range.hi == doctest::Approx(0.002));
  CHECK(shared[0].shared);
  CHECK(legend_of(shared[0]).note.find("all heads") != std::string::npos);
}

TEST_CASE("p99: the contrast is named p99 in settings and on the command line") {
  CHECK(std::string(contrast_name(Contrast::Percentile)) == "p99");
  CHECK(contrast_named("p99") == Contrast::Percentile);
}
