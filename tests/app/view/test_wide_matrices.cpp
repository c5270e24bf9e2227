// Long thin matrices (d_k, d_model much longer than the token axes) must not
// set the scale of the whole pipeline: they are shortened on their long axis
// alone, so the n x n grids stay readable at fit, and hit testing stays
// exact on their non-square cells. Sizes are measured as the app shows them:
// layout_for_view, then fit into the canvas.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "model/layout/layout.hpp"
#include "model/document/scenario_edit.hpp"
#include "model/layout/view_transform.hpp"

namespace {

attn::Scenario default_lesson() {
  return attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json").scenario;
}

// The canvas of a 1600x1000 window, less the status panel and hint line.
constexpr double kCanvasW = 930, kCanvasH = 780;

struct Shown {
  double width = 0, height = 0;  // the cells of one grid, in screen pixels
  double cell_w = 0, cell_h = 0;
};

Shown shown(const attn::Trace& t, const std::string& id, int head) {
  model::LayoutOptions o;
  o.cell = model::auto_cell_size(t);
  const model::PipelineLayout l = model::layout_for_view(t, o, kCanvasW, kCanvasH);
  const model::ViewTransform v = model::fit(l.bounds, {0, 0, kCanvasW, kCanvasH}, 12);
  const model::GridBox* g = l.find(t.index_of_named(id, head));
  REQUIRE_MESSAGE(g != nullptr, "no grid for " << id);
  return {g->cells.width() * v.zoom, g->cells.height() * v.zoom, g->cell_w * v.zoom, g->cell_h * v.zoom};
}

}  // namespace

TEST_CASE("wide matrices: d_k = 64 keeps the default lesson's weights grid about as large as d_k = 3") {
  attn::Scenario s = default_lesson();
  const Shown narrow = shown(attn::compute_trace(s), "weights", 0);
  model::edit::set_d_k(s, 64);
  const Shown wide = shown(attn::compute_trace(s), "weights", 0);
  INFO("weights grid " << narrow.width << " px wide with d_k = 3, " << wide.width << " px with d_k = 64");
  CHECK(wide.width >= 0.7 * narrow.width);
  CHECK(wide.height >= 0.7 * narrow.height);
}

TEST_CASE("wide matrices: one token with d_k = 256 leaves the scores, weights and Q readable") {
  attn::Scenario s = default_lesson();
  model::edit::set_n_tokens(s, model::edit::Sequence::Queries, 1);
  model::edit::set_d_k(s, 256);
  const attn::Trace t = attn::compute_trace(s);
  // 20 px: room for a two-digit number (values are drawn from 16 px cells).
  for (const char* id : {"scores", "weights"}) {
    const Shown g = shown(t, id, 0);
    INFO(std::string(id) << " cell " << g.cell_w << " x " << g.cell_h << " px");
    CHECK(g.cell_w >= 20);
    CHECK(g.cell_h >= 20);
  }
  const Shown q = shown(t, "q", 0);
  INFO("Q (1x256) shown " << q.width << " x " << q.height << " px");
  CHECK(q.height >= 20);
  CHECK(q.width >= 150);
}

TEST_CASE("wide matrices: only the long axis shortens, token axes and the cell size stay") {
  attn::Scenario s = default_lesson();
  const double standard = model::auto_cell_size(attn::compute_trace(s));
  model::edit::set_d_k(s, 64);
  const attn::Trace t = attn::compute_trace(s);
  CHECK(model::auto_cell_size(t) == doctest::Approx(standard));
  model::LayoutOptions o;
  o.cell = 30;
  const model::PipelineLayout l = model::layout_pipeline(t, o);
  const model::GridBox& q = *l.find(t.index_of({attn::StageKind::q, 0}));
  const model::GridBox& scores = *l.find(t.index_of({attn::StageKind::scores, 0}));
  CHECK(q.cols == 64);
  CHECK(q.cells.width() == doctest::Approx(o.long_axis_cells * o.cell));  // 64 columns in the room of 12
  CHECK(q.cell_h == doctest::Approx(o.cell));                              // 4 token rows as before
  CHECK(scores.cell_w == doctest::Approx(o.cell));
  CHECK(scores.cell_h == doctest::Approx(o.cell));
}

TEST_CASE("hit testing is exact on non-square cells") {
  attn::Scenario s = default_lesson();
  model::edit::set_d_model(s, 40);  // W_Q: 40 rows and 64 columns, both shortened, by different factors
  model::edit::set_d_k(s, 64);
  const attn::Trace t = attn::compute_trace(s);
  model::LayoutOptions o;
  o.cell = 31.7;  // cell sides that are not round numbers in binary
  const model::PipelineLayout l = model::layout_pipeline(t, o);
  const int index = t.index_of({attn::StageKind::w_q, 0});
  const model::GridBox& g = *l.find(index);
  REQUIRE(g.rows == 40);
  REQUIRE(g.cols == 64);
  REQUIRE(g.cell_w != doctest::Approx(g.cell_h));
  int wrong = 0;
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      const model::Rect cell = g.cell_rect(r, c);
      // Neighbours share their boundary exactly: no gap, no overlap.
      if (c + 1 < g.cols) CHECK(cell.x1 == g.cell_rect(r, c + 1).x0);
      if (r + 1 < g.rows) CHECK(cell.y1 == g.cell_rect(r + 1, c).y0);
      // The top-left corner belongs to the cell, and so does the last point before the far corner.
      const model::Vec2d points[] = {{cell.x0, cell.y0},
                                   {std::nextafter(cell.x1, -1e300), std::nextafter(cell.y1, -1e300)},
                                   g.cell_center(r, c)};
      for (const model::Vec2d& p : points) {
        const std::optional<model::CellHit> hit = l.hit(p);
        const bool right = hit && hit->stage == index && hit->row == r && hit->col == c;
        if (!right && wrong++ < 5)
          FAIL_CHECK("point (" << p.x << ", " << p.y << ") of cell (" << r << ", " << c << ") hits "
                               << (hit ? "(" + std::to_string(hit->row) + ", " + std::to_string(hit->col) + ")" : "nothing"));
      }
    }
  CHECK(wrong == 0);
  CHECK_FALSE(l.hit({g.cells.x1, g.cells.y0}).has_value());
  CHECK_FALSE(l.hit({g.cells.x0, g.cells.y1}).has_value());
}
