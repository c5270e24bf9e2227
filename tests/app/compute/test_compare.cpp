// The compare view's model: B − A against an independent subtraction of two
// separately computed traces, blocked cells (never NaN), a shape mismatch
// said in words, the snapshot / lesson flows that choose the sides, and a
// lesson question's hidden stages staying hidden in the compare view.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scenes.hpp"
#include "model/compare/compare.hpp"
#include "model/compare/compare_actions.hpp"
#include "model/compare/compare_feature.hpp"
#include "model/compare/lesson_compare.hpp"
#include "model/compare/compare_layout.hpp"
#include "model/lessons/lesson_actions.hpp"

// The document, the lessons' and the Model view's state and the compare
// feature that reads them, as the session keeps them.
struct CompareBench {
  model::AppState s;
  model::LessonState l;
  model::ModelUi model_view;
  model::CompareFeature compare{l, model_view};
  void start_lesson_05() {
    model::actions::start_lesson(s, l, attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/05_attention_is_all_you_need.json"));
  }
};

TEST_CASE("compare: B - A is the cell-by-cell difference of the two traces") {
  attn::Scenario sa = test_scenes::small_projected(), sb = sa;
  sb.x(1, 0) += 0.7;
  sb.scale = attn::ScaleMode::Temperature;
  sb.temperature = 0.5;
  const attn::Trace a = attn::compute_trace(sa), b = attn::compute_trace(sb);
  for (const char* id : {"weights", "scores", "output"}) {
    const model::CompareGrids g = model::compare_stage(a, b, *attn::stage_kind_named(id), 0);
    CAPTURE(id);
    REQUIRE(g.problem.empty());
    const attn::Stage* x = a.find_named(id, 0) ? a.find_named(id, 0) : a.find_named(id);
    const attn::Stage* y = b.find_named(id, 0) ? b.find_named(id, 0) : b.find_named(id);
    double worst = 0, max_abs = 0;
    std::ostringstream where;
    for (Eigen::Index r = 0; r < g.diff.rows(); ++r)
      for (Eigen::Index c = 0; c < g.diff.cols(); ++c) {
        const double want = y->value(r, c) - x->value(r, c);
        max_abs = std::max(max_abs, std::abs(want));
        if (std::abs(g.diff(r, c) - want) > worst) {
          worst = std::abs(g.diff(r, c) - want);
          where.str("");
          where << "(" << r << ", " << c << ") got " << g.diff(r, c) << " want " << want;
        }
      }
    INFO(where.str());
    CHECK(worst <= 1e-12);
    CHECK(g.max_abs_diff == doctest::Approx(max_abs).epsilon(1e-12));
    CHECK(max_abs > 0);
  }
}

TEST_CASE("compare: blocked cells have no difference and never NaN, other shapes are said in words") {
  attn::Scenario sa = test_scenes::small_projected(), sb = sa;
  sb.mask = attn::MaskKind::Causal;  // B blocks the upper triangle: -inf masked logits
  const attn::Trace a = attn::compute_trace(sa), b = attn::compute_trace(sb);
  const model::CompareGrids g = model::compare_stage(a, b, attn::StageKind::masked, 0);
  REQUIRE(g.problem.empty());
  CHECK_FALSE(g.diff.hasNaN());
  REQUIRE(g.blocked_b.size() == g.diff.size());
  CHECK(g.blocked_b(0, 1));
  CHECK(g.diff(0, 1) == 0);
  CHECK(std::isfinite(g.max_abs_diff));

  attn::Scenario sc = sa;
  sc.x.conservativeResize(sc.x.rows() + 1, Eigen::NoChange);
  sc.x.row(sc.x.rows() - 1).setConstant(0.3);
  sc.tokens.clear();
  const model::CompareGrids h = model::compare_stage(a, attn::compute_trace(sc), attn::StageKind::weights, 0);
  CHECK(h.diff.size() == 0);
  CHECK(h.problem.find("no difference grid") != std::string::npos);
  CHECK(h.problem.find("×") != std::string::npos);
  CHECK(model::compare_stage(a, b, attn::StageKind::step_q, 0).problem.find("missing") != std::string::npos);
}

TEST_CASE("compare: a snapshot is A, the edited document is B, a lesson step's compare opens and leaving closes it") {
  model::AppState s;
  model::LessonState l;
  model::CompareState c;
  s.doc.scenario = test_scenes::small_projected();
  model::actions::open_compare(s, c);
  CHECK_FALSE(c.open);  // nothing to compare yet: a notice says what to do
  CHECK_FALSE(s.notices.empty());
  model::actions::take_snapshot(s, c);
  REQUIRE(c.a);
  CHECK_FALSE(c.b);
  s.doc.scenario.x(0, 0) = 42;  // the user's edit
  model::actions::open_compare(s, c);
  CHECK(c.open);
  CHECK(c.a->x(0, 0) != 42);  // A kept the old numbers

  attn::io::LessonCompare lc;
  lc.b = test_scenes::small_projected();
  lc.label_a = "tau = 0.5";
  lc.label_b = "tau = 2";
  lc.stage = "scores";
  const std::uint64_t rev = c.revision;
  model::actions::lesson_compare(c, lc);
  CHECK(c.open);
  CHECK(c.from_lesson);
  CHECK_FALSE(c.a);  // A is the step's scene (the document)
  CHECK(c.stage == attn::StageKind::scores);
  CHECK(c.label_b == "tau = 2");
  CHECK(c.revision > rev);
  model::actions::lesson_compare(c, std::nullopt);  // a step without compare
  CHECK_FALSE(c.open);
  CHECK_FALSE(c.b);
}

TEST_CASE_FIXTURE(CompareBench, "compare feature: it follows the lesson step, a step without compare and leaving the lesson close it") {
  start_lesson_05();
  compare.follow(s);
  CHECK(compare.open() == l.lesson->current().compare.has_value());
  model::actions::lesson_step(s, l, 1);
  compare.follow(s);
  REQUIRE(compare.open());
  CHECK(compare.state().from_lesson);
  REQUIRE(l.lesson->current().compare);
  CHECK(compare.state().label_b == l.lesson->current().compare->label_b);
  model::actions::close_compare(compare.state());  // the student closes it: the same step does not reopen it
  compare.follow(s);
  CHECK_FALSE(compare.open());
  model::actions::lesson_step(s, l, 1);  // entering the step again does
  compare.follow(s);
  CHECK(compare.open());
  model::actions::close_lesson(s, l);
  compare.follow(s);
  CHECK_FALSE(compare.open());
}

TEST_CASE_FIXTURE(CompareBench, "compare feature: a reload over unsaved edits shows them as A, once") {
  s.doc.scenario = test_scenes::small_projected();
  attn::Scenario edits = s.doc.scenario;
  edits.x(0, 0) = 7;
  s.reload_replaced = model::AppState::ReplacedEdits{edits, "scene.json"};
  compare.follow(s);
  REQUIRE(compare.open());
  REQUIRE(compare.state().a);
  CHECK((*compare.state().a).x(0, 0) == 7);
  CHECK(compare.state().label_b == "scene.json on disk");
  CHECK_FALSE(s.reload_replaced);
  CHECK_FALSE(s.notices.empty());
  model::actions::close_compare(compare.state());
  compare.follow(s);
  CHECK_FALSE(compare.open());  // taken once
  // Opening the Model view leaves the compare view; reopened afterwards, it stays.
  model::actions::open_compare(s, compare.state());
  REQUIRE(compare.open());
  model_view.open = true;
  compare.follow(s);
  CHECK_FALSE(compare.open());
  model::actions::open_compare(s, compare.state());
  compare.follow(s);
  CHECK(compare.open());
}

TEST_CASE("compare traces: fixed sides are computed once per revision, errors said") {
  model::CompareState c;
  c.a = test_scenes::small_projected();
  c.revision = 1;
  model::CompareTraces t;
  t.update(c);
  REQUIRE(t.a());
  CHECK_FALSE(t.b());
  const attn::Trace* first = t.a();
  t.update(c);
  CHECK(t.a() == first);  // same revision: not recomputed
  c.a->heads[0].w_k.resize(1, 1);
  ++c.revision;
  t.update(c);
  CHECK_FALSE(t.a());
  CHECK(t.error().find("A cannot be computed") != std::string::npos);
}

TEST_CASE("compare: a stage a lesson question hides keeps its shape but shows no number until answered") {
  attn::Scenario sa = test_scenes::small_projected(), sb = sa;
  sb.mask = attn::MaskKind::Causal;
  sb.x(1, 0) += 0.7;
  const attn::Trace a = attn::compute_trace(sa), b = attn::compute_trace(sb);
  const model::CompareGrids shown = model::compare_for_view(a, b, attn::StageKind::weights, 0, {attn::StageKind::scores});
  CHECK_FALSE(shown.hidden);
  CHECK(shown.max_abs_diff > 0);
  const model::CompareGrids g = model::compare_for_view(a, b, attn::StageKind::weights, 0, {attn::StageKind::weights, attn::StageKind::output});
  CHECK(g.hidden);
  REQUIRE(g.problem.empty());
  CHECK(g.a.rows() == shown.a.rows());
  CHECK(g.diff.cols() == shown.diff.cols());
  CHECK(g.a.cwiseAbs().maxCoeff() == 0);  // nothing on screen or in a tooltip gives the answer away
  CHECK(g.b.cwiseAbs().maxCoeff() == 0);
  CHECK(g.diff.cwiseAbs().maxCoeff() == 0);
  CHECK(g.max_abs_diff == 0);
  CHECK(shown.blocked_b.size() > 0);
  CHECK(g.blocked_b.size() == 0);
}

TEST_CASE_FIXTURE(CompareBench, "compare in a lesson: a cell question on the compared stage hides it and is answered by a click on A") {
  model::CompareState& c = compare.state();
  start_lesson_05();
  REQUIRE(l.lesson);
  model::actions::lesson_step(s, l, 1);  // "without the mask, which word will *the* attend to most?"
  compare.follow(s);
  REQUIRE(c.open);
  REQUIRE(l.lesson->current().question);
  REQUIRE(l.lesson->current().question->kind == attn::io::LessonQuestion::Kind::Cell);
  const attn::Trace doc = attn::compute_trace(s.doc.scenario);
  std::vector<attn::StageKind> hidden = model::lesson_hidden_kinds(l, doc);
  CHECK(std::find(hidden.begin(), hidden.end(), c.stage) != hidden.end());
  CHECK(model::actions::compare_click_answers(l, c, doc));
  model::actions::choose_compare_head(c, 7, 1);
  CHECK(c.head == 0);  // kept within the heads there are
  model::actions::choose_compare_stage(c, attn::StageKind::scores);
  CHECK_FALSE(model::actions::compare_click_answers(l, c, doc));  // the question is about the weights
  CHECK_FALSE(model::compare_for_view(doc, attn::compute_trace(*c.b), attn::StageKind::scores, 0, hidden).hidden);
  model::actions::choose_compare_stage(c, attn::StageKind::weights);
  model::actions::give_up_lesson(s, l);
  hidden = model::lesson_hidden_kinds(l, doc);
  CHECK(hidden.empty());
  CHECK_FALSE(model::actions::compare_click_answers(l, c, doc));
}

TEST_CASE("compare layout: one line when wide, wrapped when that gives bigger cells, never overlapping") {
  model::CompareRoom room;
  room.rows = 4, room.cols = 3, room.grids = 3;
  room.row_label_w = 40, room.title_h = 20, room.col_label_h = 30, room.gap = 26;
  room.width = 1600, room.height = 700;
  const model::CompareLayout wide = model::compare_layout(room);
  CHECK(wide.per_line == 3);
  room.width = 420, room.height = 560;  // a lesson's canvas at 1024x768
  const model::CompareLayout narrow = model::compare_layout(room);
  CHECK(narrow.per_line < 3);
  const double one_line = std::floor((room.width - room.row_label_w - 2 * room.gap) / 9);
  CHECK(narrow.cell > one_line);  // wrapping was worth it
  REQUIRE(narrow.origins.size() == 3);
  for (size_t i = 0; i < 3; ++i) {  // inside the room, and no two grids overlap
    const model::Vec2d o = narrow.origins[i];
    const double w = room.cols * narrow.cell, h = room.title_h + room.rows * narrow.cell + room.col_label_h;
    CAPTURE(i);
    CHECK(o.x + w <= room.width);
    CHECK(o.y + h <= room.height);
    for (size_t j = 0; j < i; ++j) {
      const model::Vec2d p = narrow.origins[j];
      CHECK((o.x >= p.x + w || p.x >= o.x + w || o.y >= p.y + h || p.y >= o.y + h));
    }
  }
}

TEST_CASE("compare: a difference within rounding is exactly 0 (lesson 01 step 11, the row of \"gave\")") {
  const attn::io::LessonFile l =
      attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json");
  const attn::io::LessonStep& st = l.steps[10];
  REQUIRE(st.compare.has_value());
  const attn::Trace a = attn::compute_trace(st.scene.scenario), b = attn::compute_trace(st.compare->b);
  const model::CompareGrids g = model::compare_stage(a, b, attn::StageKind::output, -1);
  REQUIRE(g.problem.empty());
  const attn::Stage* out_a = a.find(attn::StageKind::output);
  REQUIRE(out_a);
  REQUIRE(out_a->row_labels[1] == "gave");
  for (Eigen::Index c = 0; c < g.diff.cols(); ++c) {
    CAPTURE(c);
    // The two traces' own numbers differ by rounding at most...
    CHECK(std::abs(b.find(attn::StageKind::output)->value(1, c) - out_a->value(1, c)) < 1e-14);
    CHECK(g.diff(1, c) == 0.0);  // ...and the difference grid says zero, as the lesson does
    CHECK(std::abs(g.diff(0, c)) > 1e-6);  // the swapped names' rows do change
  }
}

TEST_CASE("compare: a grid too big for a cell each is drawn as blocks: means of A and B, the largest change of B - A") {
  // 300 × 300 with max 128 a side: blocks of 3 (100 × 100); a causal mask.
  const int n = 300;
  model::CompareGrids g;
  g.a = attn::Mat::Zero(n, n);
  g.b = attn::Mat::Zero(n, n);
  g.blocked_a = attn::BoolMat::Constant(n, n, false);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      g.a(r, c) = std::sin(0.37 * r + 0.11 * c);
      g.b(r, c) = g.a(r, c) + ((r * 7 + c) % 13 == 0 ? 0.01 * ((r + c) % 5 - 2) : 0.0);
      g.blocked_a(r, c) = c > r;
    }
  g.blocked_b = g.blocked_a;
  g.diff = attn::Mat::Zero(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c <= r; ++c) g.diff(r, c) = g.b(r, c) - g.a(r, c);
  const model::ShownGrids s = model::shown_grids(g, 128);
  REQUIRE(s.block == 3);
  REQUIRE(s.a.rows() == 100);
  REQUIRE(s.diff.cols() == 100);
  double worst = 0;
  std::string where;
  for (int br = 0; br < 100; ++br)
    for (int bc = 0; bc < 100; ++bc) {
      // Independently: the open cells of the block (c <= r).
      double sum_a = 0, sum_b = 0, largest = 0;
      int open = 0;
      for (int r = 3 * br; r < 3 * br + 3; ++r)
        for (int c = 3 * bc; c < 3 * bc + 3; ++c)
          if (c <= r) {
            sum_a += g.a(r, c), sum_b += g.b(r, c), ++open;
            if (std::abs(g.diff(r, c)) > std::abs(largest)) largest = g.diff(r, c);
          }
      const bool shut = open == 0;
      CHECK((s.blocked_a.size() && s.blocked_a(br, bc)) == shut);
      CHECK((s.blocked_diff.size() && s.blocked_diff(br, bc)) == shut);
      if (shut) continue;
      for (const double e : {std::abs(s.a(br, bc) - sum_a / open), std::abs(s.b(br, bc) - sum_b / open),
                             std::abs(s.diff(br, bc) - largest)})
        if (e > worst) worst = e, where = "block " + std::to_string(br) + "," + std::to_string(bc);
    }
  INFO("worst " << worst << " at " << where);
  CHECK(worst <= 1e-15);
  // Every change survives: the largest over the blocks is the largest over the cells.
  CHECK(s.diff.cwiseAbs().maxCoeff() == g.diff.cwiseAbs().maxCoeff());
  // Small grids are drawn cell by cell.
  model::CompareGrids small;
  small.a = small.b = small.diff = attn::Mat::Zero(128, 40);
  CHECK(model::shown_grids(small, 128).block == 1);
  CHECK(model::shown_grids(small, 128).a.size() == 0);
}
