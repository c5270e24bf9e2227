// What a slide keeps when a step's grids would be too small to read
// (slide_focus.hpp), and the layout's shared row labels it relies on: a
// grid level with a neighbour that names the same rows leaves its labels to
// that neighbour and narrows by their width; a wrapped grid keeps its own;
// a slide keeps what reaches 28 px cells, a grouped-query head's group
// before one head, and says what it left out.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "attn/io/lesson_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "model/layout/layout.hpp"
#include "model/framing/shown_stages.hpp"
#include "model/framing/slide_focus.hpp"
#include "model/lessons/lesson_actions.hpp"

namespace {

attn::Trace scene_trace(const std::string& name) {
  return attn::compute_trace(attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/" + name + ".json").scenario);
}

const model::GridBox& grid(const model::PipelineLayout& l, const attn::Trace& t, const std::string& id, int head) {
  const model::GridBox* g = l.find(t.index_of_named(id, head));
  REQUIRE_MESSAGE(g != nullptr, "no grid for " << id << " head " << head);
  return *g;
}

// The document and the lessons' state, as the session keeps them.
struct Taught {
  model::AppState s;
  model::LessonState l;
};

// A lesson's step as the window holds it, presented.
Taught presented_step(const std::string& lesson, int step) {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/" + lesson + ".json"));
  model::actions::lesson_step(s, l, step);
  s.view.presentation = true;
  return {std::move(s), std::move(l)};
}

std::vector<int> named(const attn::Trace& t, std::initializer_list<std::pair<const char*, int>> stages) {
  std::vector<int> out;
  for (const auto& [id, head] : stages) out.push_back(t.index_of_named(id, head));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("layout: Q rotated beside Q leaves the row labels to Q, and keeps them when wrapped below it") {
  const attn::Trace t = scene_trace("rope_interleaved_partial");
  model::LayoutOptions o;
  o.head = 0;
  o.only = named(t, {{"q", 0}, {"q_rope", 0}});
  const model::PipelineLayout own = model::place_grids(t, o);
  o.share_row_labels = true;
  const model::PipelineLayout shared = model::place_grids(t, o);
  CHECK(grid(own, t, "q_rope", 0).row_labels);
  CHECK(grid(shared, t, "q", 0).row_labels);
  CHECK_FALSE(grid(shared, t, "q_rope", 0).row_labels);
  // Level with Q, and narrower by the labels' band, less a little air.
  CHECK(grid(shared, t, "q_rope", 0).cells.y0 == grid(shared, t, "q", 0).cells.y0);
  const double saved = own.bounds.width() - shared.bounds.width();
  const double band = grid(own, t, "q_rope", 0).cells.x0 - grid(own, t, "q_rope", 0).box.x0;
  CHECK(saved == doctest::Approx(band - 8));
  // Wrapped onto a band of its own, nothing on its left names its rows.
  o.bands = 2;
  const model::PipelineLayout wrapped = model::place_grids(t, o);
  REQUIRE(wrapped.bands == 2);
  CHECK(grid(wrapped, t, "q_rope", 0).row_labels);
}

TEST_CASE("layout: a grid whose left neighbour names other rows keeps its labels") {
  const attn::Trace t = scene_trace("default");
  model::LayoutOptions o;
  o.share_row_labels = true;
  o.only = named(t, {{"w_q", 0}, {"q", 0}, {"scores", 0}, {"scaled", 0}});
  const model::PipelineLayout l = model::place_grids(t, o);
  CHECK(grid(l, t, "w_q", 0).row_labels);
  CHECK(grid(l, t, "q", 0).row_labels);  // W_Q's rows are model dimensions, Q's are tokens
  CHECK_FALSE(grid(l, t, "scaled", 0).row_labels);  // the scores beside it name the same tokens
}

TEST_CASE("slide focus: a step that fits keeps everything and one that does not keeps a part that does and names the rest") {
  // Lesson 01 step 2 (scaled and weights of a 4-token scene) fits at 1024x768: nothing is left out.
  {
    auto [s, l] = presented_step("01_attention_from_scratch", 1);
    const attn::Trace t = attn::compute_trace(s.doc.scenario);
    const std::vector<int> shown = named(t, {{"scaled", 0}, {"weights", 0}});
    const model::SlideFocus f = model::slide_focus(s, l, t, shown, model::LayoutOptions{}, 600, 700);
    CHECK(f.only == shown);
    CHECK(f.left_out.empty());
    CHECK(f.captions);
    CHECK(f.cell_px >= model::kSlideMinCellPx);
  }
  // Grouped-query Q, K and scores of 4 heads cannot reach 28 px in 600x700;
  // the part kept is measured as the slide will lay it out.
  auto [s, l] = presented_step("07_attention_in_modern_models", 5);
  const attn::Trace t = scene_trace("grouped_query");
  std::vector<int> shown;
  for (const char* id : {"q_rope", "k_rope", "scores"})
    for (int h = 0; h < 4; ++h)
      if (t.index_of_named(id, h) >= 0 && t.stages[static_cast<size_t>(t.index_of_named(id, h))].head == h)
        shown.push_back(t.index_of_named(id, h));
  std::sort(shown.begin(), shown.end());
  model::LayoutOptions o = model::scaled_text(model::LayoutOptions{}, 1.5);
  o.cell = model::auto_cell_size(t);
  for (const auto& [w, h] : std::vector<std::pair<double, double>>{{600, 700}, {1400, 900}}) {
    CAPTURE(w);
    const model::SlideFocus f = model::slide_focus(s, l, t, shown, o, w, h);
    // Whatever it keeps reaches the slide's cell size, or is the largest there is.
    if (f.left_out.empty()) {
      CHECK(f.only == shown);
      CHECK(f.cell_px >= model::kSlideMinCellPx);
    } else {
      INFO(f.left_out);
      CHECK((f.left_out.rfind("Not shown: ", 0) == 0 || f.left_out.find(" of 4 shown") != std::string::npos));
      CHECK(f.only.size() < shown.size());
      for (int i : f.only) CHECK(std::find(shown.begin(), shown.end(), i) != shown.end());
    }
    model::LayoutOptions check = o;
    check.only = f.only;
    check.head = f.head;
    check.captions = f.captions;
    check.share_row_labels = true;
    CHECK(model::fitted_cell_px(model::layout_for_view(t, check, w, h), w, h) == doctest::Approx(f.cell_px));
  }
}

TEST_CASE("slide focus: the heads of a group are kept together before one head alone") {
  const attn::Trace t = scene_trace("grouped_query");
  auto [s, l] = presented_step("07_attention_in_modern_models", 5);
  std::vector<int> shown;
  for (int h = 0; h < 4; ++h) shown.push_back(t.index_of_named("scores", h));
  shown.push_back(t.index_of_named("k_rope", 0));
  shown.push_back(t.index_of_named("k_rope", 2));
  std::sort(shown.begin(), shown.end());
  model::LayoutOptions o = model::scaled_text(model::LayoutOptions{}, 1.5);
  o.cell = model::auto_cell_size(t);
  // Tall enough for one group's two lanes, not for four: the group of head
  // 0 (heads 0 and 1, which read one K) before head 0 alone.
  const model::SlideFocus f = model::slide_focus(s, l, t, shown, o, 700, 800);
  INFO(f.left_out << " at " << f.cell_px << " px");
  CHECK(f.left_out == "Heads 0 and 1 of 4 shown");
  CHECK(f.only == named(t, {{"k_rope", 0}, {"scores", 0}, {"scores", 1}}));
  CHECK(f.cell_px >= model::kSlideMinCellPx);
}

TEST_CASE("slide crop: a 33-token grid shows the rows around the asked row at 28 px and names them") {
  model::AppState s;
  model::LessonState lessons;
  model::actions::start_lesson(s, lessons, attn::io::load_lesson(std::string(ATTNVIZ_TEST_DATA_DIR) + "/lessons/long_scene/long_scene_lesson.json"));
  model::actions::lesson_step(s, lessons, 0);  // asks about row 20 of the weights
  s.view.presentation = true;
  const attn::Trace t = attn::compute_trace(s.doc.scenario);
  REQUIRE(t.dims.n_q == 33);
  model::LayoutOptions o = model::scaled_text(model::LayoutOptions{}, 1.5);
  o.cell = model::auto_cell_size(t);
  o.only = named(t, {{"weights", 0}});
  o.share_row_labels = true;
  const double w = 611, h = 682;  // a 1024x768 slide's canvas, less the fit's margins
  const model::PipelineLayout l = model::layout_for_view(t, o, w, h);
  REQUIRE(model::fitted_cell_px(l, w, h) < model::kSlideMinCellPx);  // whole, it does not read
  const std::optional<model::SlideCrop> c = model::slide_crop(lessons, t, l, w, h);
  REQUIRE(c.has_value());
  const model::GridBox& g = grid(l, t, "weights", 0);
  CHECK(c->stage == g.stage);
  INFO(c->note);
  CHECK(c->r0 <= 20);
  CHECK(c->r1 > 20);
  CHECK(c->r1 - c->r0 < 33);
  CHECK(c->r0 >= 0);
  CHECK(c->r1 <= 33);
  CHECK(c->c0 == 0);  // the question names no column: the first ones
  // Fitted as the view fits it, the cells reach the slide's size, and every
  // row the note names lies inside the picture.
  const double zoom = std::min(w / c->world.width(), h / c->world.height());
  CHECK(g.min_cell() * zoom >= model::kSlideMinCellPx);
  const double cx = (c->world.x0 + c->world.x1) / 2, cy = (c->world.y0 + c->world.y1) / 2;
  const double top = cy - h / 2 / zoom, bottom = cy + h / 2 / zoom, left = cx - w / 2 / zoom, right = cx + w / 2 / zoom;
  CHECK(g.row_y(c->r0) >= top - 1e-9);
  CHECK(g.row_y(c->r1) <= bottom + 1e-9);
  CHECK(g.col_x(c->c1) <= right + 1e-9);
  CHECK(g.col_x(c->c0) >= left - 1e-9);
  // And it names all that fits: one more row would not.
  CHECK((c->r0 == 0 || g.row_y(c->r0 - 1) < top + g.cell_h) );
  const std::string rows = "rows " + std::to_string(c->r0) + "–" + std::to_string(c->r1 - 1);
  CHECK(c->note.rfind(rows, 0) == 0);
  CHECK(c->note.find("of 33 × 33 shown") != std::string::npos);
  // A 4-token scene needs no crop.
  auto [small, l_small] = presented_step("01_attention_from_scratch", 1);
  const attn::Trace st = attn::compute_trace(small.doc.scenario);
  model::LayoutOptions so;
  so.only = named(st, {{"weights", 0}});
  CHECK_FALSE(model::slide_crop(l_small, st, model::layout_for_view(st, so, w, h), w, h).has_value());
}
