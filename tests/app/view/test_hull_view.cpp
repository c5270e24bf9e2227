// The convex-hull panel model: points, polygon and outputs of a d_v = 2
// scene, the reason shown when d_v is not 2, rebuilds only on a new trace or
// head, and the plot mapping (equal scales, y up) used for drawing and hits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "scenes.hpp"
#include "model/explore/hull_view.hpp"

namespace {

attn::Trace load_trace(const std::string& name) {
  return attn::compute_trace(attn::io::load_scenario(ATTNVIZ_ASSETS_DIR "/scenarios/" + name + ".json").scenario);
}

}  // namespace

TEST_CASE("hull view: the d_v = 2 scene gives its values, a polygon and outputs inside it") {
  const attn::Trace t = load_trace("convex_hull_2d");
  const model::HullView h = model::build_hull_view(t, 0);
  REQUIRE(h.ok);
  const attn::Mat v = t.find(attn::StageKind::v, 0)->value.dense();
  REQUIRE(h.values.size() == static_cast<size_t>(v.rows()));
  for (size_t j = 0; j < h.values.size(); ++j) {
    CHECK(h.values[j].x == v(static_cast<Eigen::Index>(j), 0));
    CHECK(h.values[j].y == v(static_cast<Eigen::Index>(j), 1));
  }
  CHECK(h.value_labels[0] == "top");
  CHECK(h.hull.size() == 5);  // the origin token is inside
  CHECK(std::find(h.hull.begin(), h.hull.end(), 5) == h.hull.end());
  REQUIRE(h.outside.size() == h.outputs.size());
  for (double d : h.outside) CHECK(d <= 1e-9);
  CHECK(h.caveat.empty());
  for (const model::Vec2d& p : h.values) CHECK(h.bounds.contains(p));
  for (const model::Vec2d& p : h.outputs) CHECK(h.bounds.contains(p));
}

TEST_CASE("hull view: d_v other than 2 says why it cannot plot") {
  const model::HullView h = model::build_hull_view(attn::compute_trace(test_scenes::small_projected()), 0);
  CHECK_FALSE(h.ok);
  CHECK(h.reason.find("d_v = 3") != std::string::npos);
  CHECK(h.values.empty());
}

TEST_CASE("hull view: zeroing after softmax can push outputs out, and the view says so") {
  attn::io::ScenarioFile f = attn::io::load_scenario(ATTNVIZ_ASSETS_DIR "/scenarios/convex_hull_2d.json");
  f.scenario.x.array() += 3;  // move the hull away from the origin, where shrunken outputs go
  f.scenario.mask = attn::MaskKind::Causal;
  f.scenario.mask_mode = attn::MaskMode::AfterSoftmax;
  const model::HullView h = model::build_hull_view(attn::compute_trace(f.scenario), 0);
  REQUIRE(h.ok);
  CHECK_FALSE(h.caveat.empty());
  double furthest = 0;
  for (double d : h.outside) furthest = std::max(furthest, d);
  CHECK(furthest > 0.01);
}

TEST_CASE("hull view: the model rebuilds on a new generation or head only") {
  const attn::Trace t = load_trace("convex_hull_2d");
  model::HullModel m;
  m.selected = 99;
  m.update(t, 1, -1);
  CHECK(m.builds() == 1);
  CHECK(m.selected == 5);  // clamped to the last output
  m.update(t, 1, -1);
  CHECK(m.builds() == 1);
  m.update(t, 2, -1);
  CHECK(m.builds() == 2);
  m.update(t, 2, 0);  // the canvas shows head 0 only: same head as before
  CHECK(m.builds() == 2);
}

TEST_CASE("hull view: the plot keeps equal scales, puts y up and finds the output under the mouse") {
  const model::HullView h = model::build_hull_view(load_trace("convex_hull_2d"), 0);
  REQUIRE(h.ok);
  const model::Rect screen{100, 50, 700, 350};  // wide: height limits the scale
  const model::Vec2d a = model::hull_to_screen(h, screen, {0, 0}), b = model::hull_to_screen(h, screen, {1, 1});
  CHECK(b.x - a.x == doctest::Approx(a.y - b.y));  // equal scales, y up
  CHECK(b.x > a.x);
  for (const model::Vec2d& p : h.values) {
    const model::Vec2d s = model::hull_to_screen(h, screen, p);
    CHECK(screen.contains(s));
  }
  const model::Vec2d third = model::hull_to_screen(h, screen, h.outputs[2]);
  CHECK(model::output_at(h, screen, {third.x + 2, third.y - 1}, 6) == 2);
  CHECK(model::output_at(h, screen, {screen.x0 + 1, screen.y0 + 1}, 6) == -1);
}

TEST_CASE("hull view: a head that shares its group's values (grouped-query attention) plots the values it read") {
  const attn::Trace t = load_trace("grouped_query");  // d_v = 2; head 1 reads head 0's V
  const model::HullView h = model::build_hull_view(t, 1);
  REQUIRE_MESSAGE(h.ok, h.reason);
  const attn::Mat v = t.find(attn::StageKind::v, 0)->value.dense();
  REQUIRE(h.values.size() == static_cast<size_t>(v.rows()));
  CHECK(h.values[2].x == v(2, 0));
  for (double d : h.outside) CHECK(d <= 1e-9);
}
