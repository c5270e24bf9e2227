// Pipeline layout and hit testing: computation order left to right, no
// overlaps, non-square matrices laid out rows x cols (never transposed),
// exact cell boundaries, heads in lanes, and wrapping into bands.
#include <doctest/doctest.h>

#include <string>

#include "attn/io/scenario_file.hpp"
#include "scenes.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/view_transform.hpp"

namespace {

const model::GridBox& box_of(const model::PipelineLayout& l, const attn::Trace& t, const std::string& id, int head = -1) {
  const model::GridBox* g = l.find(t.index_of_named(id, head));
  REQUIRE_MESSAGE(g != nullptr, "no grid for " << id << " head " << head);
  return *g;
}

attn::Trace default_trace() {
  return attn::compute_trace(attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json").scenario);
}

}  // namespace

TEST_CASE("layout: stages run left to right in computation order") {
  const attn::Trace t = default_trace();
  const model::PipelineLayout l = model::layout_pipeline(t);
  const char* order[] = {"x", "w_q", "q", "scores", "scaled", "masked", "weights", "head_output", "concat", "w_o", "output"};
  double previous = -1e9;
  for (const char* id : order) {
    const int head = std::string(id) == "x" || std::string(id) == "concat" || std::string(id) == "w_o" ||
                             std::string(id) == "output" ? -1 : 0;
    const model::GridBox& g = box_of(l, t, id, head);
    CHECK_MESSAGE(g.box.x0 > previous, id << " starts at " << g.box.x0 << ", not right of the previous stage");
    previous = g.box.x0;
  }
  // W_Q, W_K, W_V share a column; Q, K, V share the next one, aligned by slot.
  CHECK(box_of(l, t, "w_q", 0).column == box_of(l, t, "w_k", 0).column);
  CHECK(box_of(l, t, "q", 0).column == box_of(l, t, "w_q", 0).column + 1);
  CHECK(box_of(l, t, "k", 0).box.y0 == doctest::Approx(box_of(l, t, "w_k", 0).box.y0));
  CHECK(box_of(l, t, "q", 0).box.y0 == doctest::Approx(box_of(l, t, "scores", 0).box.y0));
}

TEST_CASE("layout: no two grids overlap, also with several heads and bands") {
  attn::Scenario s = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json").scenario;
  const attn::Trace t = attn::compute_trace(s);
  for (int variant = 0; variant < 4; ++variant) {
    const double wrap = variant % 2 ? 800.0 : 0.0;
    model::LayoutOptions o;
    o.wrap_width = wrap;
    o.side_by_side = variant >= 2;  // projections beside their weights
    const model::PipelineLayout l = model::layout_pipeline(t, o);
    CHECK(l.grids.size() == t.stages.size());
    for (size_t i = 0; i < l.grids.size(); ++i)
      for (size_t j = i + 1; j < l.grids.size(); ++j)
        CHECK_MESSAGE(!l.grids[i].box.overlaps(l.grids[j].box),
                      t.stages[static_cast<size_t>(l.grids[i].stage)].id << " overlaps "
                                                                           << t.stages[static_cast<size_t>(l.grids[j].stage)].id);
    if (wrap > 0) CHECK(l.bands > 1);
  }
  // Head lanes: head 1's Q sits below head 0's Q in the same column.
  const model::PipelineLayout l = model::layout_pipeline(t);
  CHECK(box_of(l, t, "q", 1).column == box_of(l, t, "q", 0).column);
  CHECK(box_of(l, t, "q", 1).box.y0 > box_of(l, t, "q", 0).box.y1);
}

TEST_CASE("layout: one head shows only that head plus the shared stages") {
  attn::Scenario s = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json").scenario;
  const attn::Trace t = attn::compute_trace(s);
  model::LayoutOptions o;
  o.head = 1;
  const model::PipelineLayout l = model::layout_pipeline(t, o);
  CHECK(l.find(t.index_of({attn::StageKind::q, 0})) == nullptr);
  CHECK(l.find(t.index_of({attn::StageKind::q, 1})) != nullptr);
  CHECK(l.find(t.index_of({attn::StageKind::concat, -1})) != nullptr);
}

TEST_CASE("layout: a 2x6 matrix is laid out as 2 rows of 6 cells, not transposed") {
  attn::Scenario s;
  s.x = attn::Mat::Zero(2, 6);  // 2 tokens, 6 features
  const attn::Trace t = attn::compute_trace(s);
  const model::PipelineLayout l = model::layout_pipeline(t);
  const model::GridBox& x = box_of(l, t, "x");
  CHECK(x.rows == 2);
  CHECK(x.cols == 6);
  CHECK(x.cells.width() == doctest::Approx(6 * x.cell_w));
  CHECK(x.cells.height() == doctest::Approx(2 * x.cell_h));
  // Cell (1, 5) is bottom right: right of and below cell (0, 0).
  const model::Rect last = x.cell_rect(1, 5);
  CHECK(last.x1 == doctest::Approx(x.cells.x1));
  CHECK(last.y1 == doctest::Approx(x.cells.y1));
  const std::optional<model::CellHit> hit = l.hit(x.cell_center(1, 5));
  REQUIRE(hit);
  CHECK(hit->row == 1);
  CHECK(hit->col == 5);
}

TEST_CASE("hit testing is exact at cell boundaries") {
  const attn::Trace t = attn::compute_trace(test_scenes::small_projected());
  const model::PipelineLayout l = model::layout_pipeline(t);
  const model::GridBox& g = box_of(l, t, "scores", 0);
  const int index = t.index_of({attn::StageKind::scores, 0});
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      const model::Rect cell = g.cell_rect(r, c);
      // The top-left corner belongs to the cell; a hair before it to the neighbour.
      const std::optional<model::CellHit> at = l.hit({cell.x0, cell.y0});
      REQUIRE(at);
      CHECK(at->stage == index);
      CHECK(at->row == r);
      CHECK(at->col == c);
      const std::optional<model::CellHit> inside = l.hit({cell.x1 - 1e-9, cell.y1 - 1e-9});
      REQUIRE(inside);
      CHECK(inside->row == r);
      CHECK(inside->col == c);
    }
  // The far edges are outside the grid.
  CHECK_FALSE(l.hit({g.cells.x1, g.cells.y0}).has_value());
  CHECK_FALSE(l.hit({g.cells.x0, g.cells.y1}).has_value());
  CHECK_FALSE(l.hit({g.cells.x0 - 1e-9, g.cells.y0}).has_value());
}

TEST_CASE("hit testing through the view transform round-trips") {
  const attn::Trace t = attn::compute_trace(test_scenes::small_projected());
  const model::PipelineLayout l = model::layout_pipeline(t);
  model::ViewTransform v = model::fit(l.bounds, {100, 50, 1100, 750});
  v.zoom_at({400, 300}, 1.7);
  const model::GridBox& g = box_of(l, t, "weights", 0);
  const model::Vec2d screen = v.to_screen(g.cell_center(2, 1));
  const std::optional<model::CellHit> hit = l.hit(v.to_world(screen));
  REQUIRE(hit);
  CHECK(hit->row == 2);
  CHECK(hit->col == 1);
}

TEST_CASE("the wheel can zoom tiny cells up to where they print their numbers, and no further") {
  const attn::Trace t = attn::compute_trace(test_scenes::small_projected());
  model::PipelineLayout l = model::layout_pipeline(t);
  CHECK(model::max_zoom_for(l) == model::ViewTransform::kMaxZoom);  // 30-unit cells reach 64 px far sooner
  for (model::GridBox& g : l.grids) g.cell_w = g.cell_h = 0.125;  // as a 2048-token grid's cells
  const double most = model::max_zoom_for(l);
  CHECK(most == doctest::Approx(64.0 / 0.125));
  model::ViewTransform v;
  for (int i = 0; i < 200; ++i) v.zoom_at({400, 300}, 1.18, most);
  CHECK(v.zoom == doctest::Approx(most));
  CHECK(0.125 * v.zoom == doctest::Approx(64.0));
  v.zoom_at({400, 300}, 1.18);  // the default limit never pulls a zoom back that is past it
  CHECK(v.zoom == doctest::Approx(most));
  v.zoom_at({400, 300}, 1 / 1.18);
  CHECK(v.zoom < most);
}

TEST_CASE("fit shows the whole world rectangle inside the screen rectangle") {
  const model::Rect world{0, 0, 2000, 500};
  const model::Rect screen{10, 20, 1010, 820};
  const model::ViewTransform v = model::fit(world, screen, 16);
  const model::Rect s = v.to_screen(world);
  CHECK(s.x0 >= screen.x0 + 15.9);
  CHECK(s.x1 <= screen.x1 - 15.9);
  CHECK(s.y0 >= screen.y0);
  CHECK(s.y1 <= screen.y1);
  CHECK((s.x0 + s.x1) / 2 == doctest::Approx((screen.x0 + screen.x1) / 2));
}

TEST_CASE("a long pipeline wraps into bands when that shows it larger") {
  const attn::Trace t = default_trace();
  const model::PipelineLayout one = model::layout_pipeline(t);
  const model::PipelineLayout fitted = model::layout_for_view(t, {}, 900, 900);
  CHECK(fitted.bands > 1);
  auto scale = [](const model::PipelineLayout& l) { return std::min(900 / l.bounds.width(), 900 / l.bounds.height()); };
  CHECK(scale(fitted) > scale(one));
  // Wide and short windows keep one band.
  CHECK(model::layout_for_view(t, {}, 4000, 700).bands == 1);
}

TEST_CASE("four heads fit larger with each projection beside its weights") {
  // four_heads.json: 4 heads, 6 tokens, d_model 8, d_k = d_v = 2. Stacking
  // W_Q/W_K/W_V in every lane made 12 rows of grids: ~16-20% zoom at fit in
  // the canvas of a 1600x1000 window (about 900x700 pixels).
  const attn::Trace t = attn::compute_trace(
      attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/four_heads.json").scenario);
  model::LayoutOptions o;
  o.cell = model::auto_cell_size(t);
  const double w = 900, h = 700;
  auto scale = [&](const model::PipelineLayout& l) { return std::min(w / l.bounds.width(), h / l.bounds.height()); };
  const model::PipelineLayout stacked = model::layout_pipeline(t, o);
  const model::PipelineLayout fitted = model::layout_for_view(t, o, w, h);
  INFO("stacked " << stacked.bounds.width() << "x" << stacked.bounds.height() << " -> " << scale(stacked) << ", fitted "
                  << fitted.bounds.width() << "x" << fitted.bounds.height() << " -> " << scale(fitted));
  CHECK(scale(fitted) >= 0.30);
  CHECK(scale(fitted) >= 1.5 * scale(stacked));
  // Side by side still reads left to right: X -> W_Q -> Q -> W_K -> K -> W_V -> V -> QKᵀ, one row per head.
  o.side_by_side = true;
  const model::PipelineLayout l = model::layout_pipeline(t, o);
  for (int head = 0; head < 4; ++head) {
    double previous = box_of(l, t, "x").box.x1;
    for (const char* id : {"w_q", "q", "w_k", "k", "w_v", "v", "scores"}) {
      const model::GridBox& g = box_of(l, t, id, head);
      CHECK_MESSAGE(g.box.x0 > previous, id << " of head " << head << " starts at " << g.box.x0);
      CHECK(g.box.y0 == doctest::Approx(box_of(l, t, "q", head).box.y0));
      previous = g.box.x1;
    }
  }
}

TEST_CASE("layout: token names wider than their column get a rotated label band tall enough for them") {
  attn::Scenario s = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json").scenario;
  model::LayoutOptions o;
  const attn::Trace short_names = attn::compute_trace(s);
  o.cell = model::auto_cell_size(short_names);  // as the app lays a 4-token scene out
  // "the", "cat", "sat", "down" fit the column: no rotation, the band stays.
  CHECK(model::column_label_band(short_names, o) == o.col_label_h);
  s.tokens = {"the", "animal", "because", "it"};
  const attn::Trace long_names = attn::compute_trace(s);
  const double band = model::column_label_band(long_names, o);
  CHECK(band >= model::label_width("because", o.char_w));  // the longest name fits upright
  const model::PipelineLayout l = model::layout_pipeline(long_names, o);
  const model::GridBox& w = box_of(l, long_names, "weights", 0);
  CHECK(w.cells.y0 - w.header.y1 >= model::label_width("because", o.char_w));
  // Every grid keeps the same band, so neighbouring cells stay level.
  CHECK(box_of(l, long_names, "q", 0).cells.y0 - box_of(l, long_names, "q", 0).box.y0 ==
        doctest::Approx(w.cells.y0 - w.box.y0));
  // Very long names stop growing the band; they end in "…" (full text on hover).
  s.tokens = {"the", std::string(80, 'x'), "b", "c"};
  CHECK(model::column_label_band(attn::compute_trace(s), o) <= o.rotated_label_chars * o.char_w + 8);
}

TEST_CASE("layout: index labels never rotate, token names rotate only when they do not fit") {
  CHECK_FALSE(model::rotate_column_labels({"0", "1", "2", "3"}, 100, 10));
  CHECK(model::rotate_column_labels({"the", "because"}, 50, 30));
  CHECK_FALSE(model::rotate_column_labels({"the", "cat"}, 20, 30));
}
