// Teaching a lesson from the front of the room, in the model layer: every
// step of every built-in lesson, presented, lays out the grids the step is
// about (its stage on every head it shows, and every grid it names); a
// clicker (Page Down / Page Up, Space and the arrows while presenting) goes
// through a step's animation, then its answer, then the next step, and back
// the same way; one Escape leaves presentation even with a pinned cell.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "attn/io/lesson_file.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/navigation_keys.hpp"
#include "model/framing/shown_stages.hpp"
#include "model/layout/text_fit.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> builtin_lessons() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons"))
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A lesson step as the window would hold it: the step's scene computed, its
// timeline at the step's granularity and heads, its timing applied.
struct StepOnScreen {
  attn::Trace trace;
  model::Timeline tl;
  model::Frame frame;
};

StepOnScreen settle(model::AppState& s, model::LessonState& l) {
  StepOnScreen out{attn::compute_trace(s.doc.scenario), {}, {}};
  out.tl = model::build_timeline(out.trace, s.granularity, model::TimelineFilter{s.view.head});
  model::apply_view_request(s, l, out.trace, out.tl);
  out.frame = model::evaluate(out.trace, out.tl, s.clock.t);
  return out;
}

// The (id, head) pairs of the stages laid out.
std::set<std::pair<std::string, int>> laid_out(const model::AppState& s, const model::LessonState& l, const StepOnScreen& on) {
  std::vector<int> only = model::shown_stages(s, l, on.trace, on.tl, on.frame);
  std::set<std::pair<std::string, int>> out;
  if (only.empty())  // everything is laid out
    for (size_t i = 0; i < on.trace.stages.size(); ++i) only.push_back(static_cast<int>(i));
  for (int i : only) {
    const attn::Stage& st = on.trace.stages[static_cast<size_t>(i)];
    if (s.view.head >= 0 && st.head >= 0 && st.head != s.view.head) continue;
    out.insert({attn::to_string(st.id), st.head});
  }
  return out;
}

// Whether the stage a spec names is laid out: its own head, or (head -1)
// every head in view, read straight from the trace.
void check_named_on_screen(const attn::io::CellSpec& spec, const model::AppState& s, const StepOnScreen& on,
                           const std::set<std::pair<std::string, int>>& shown) {
  int found = 0;
  for (const attn::Stage& st : on.trace.stages) {
    if (name_of(st.id) != spec.stage) continue;
    if (spec.head >= 0 && st.head >= 0 && st.head != spec.head) continue;
    if (s.view.head >= 0 && st.head >= 0 && st.head != s.view.head) continue;
    ++found;
    CAPTURE(st.head);
    CHECK_MESSAGE(shown.count({attn::to_string(st.id), st.head}) == 1, "stage " << name_of(st.id) << " of head " << st.head << " is not laid out");
  }
  CHECK_MESSAGE(found > 0, "the step names " << spec.stage << ", which its trace does not have on the heads in view");
}

}  // namespace

TEST_CASE("presenting a lesson: every step of every built-in lesson lays out the grids it is about") {
  const std::vector<std::string> lessons = builtin_lessons();
  REQUIRE(lessons.size() >= 6);
  int steps_checked = 0;
  for (const std::string& file : lessons) {
    CAPTURE(file);
    model::AppState s;
    model::LessonState l;
    s.view.presentation = true;
    model::actions::start_lesson(s, l, attn::io::load_lesson(file));
    for (int step = 0; step < l.lesson->steps(); ++step) {
      CAPTURE(step + 1);
      model::actions::lesson_step(s, l, step);
      const attn::io::LessonStep& st = l.lesson->current();
      if (st.train) continue;  // the Train view, not the pipeline
      const StepOnScreen on = settle(s, l);
      const auto shown = laid_out(s, l, on);
      if (!st.view.focus.stage.empty()) check_named_on_screen(st.view.focus, s, on, shown);
      for (const attn::io::CellSpec& h : st.view.highlight) check_named_on_screen(h, s, on, shown);
      if (st.question && !st.question->target.stage.empty()) check_named_on_screen(st.question->target, s, on, shown);
      ++steps_checked;
    }
  }
  CHECK(steps_checked > 40);
}

TEST_CASE("presenting a lesson: the view is the step's, not the animation's, and matches the window's") {
  model::AppState s;
  model::LessonState l;
  s.view.presentation = true;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 1);  // "From scores to shares": about the weights, shown at the end
  const StepOnScreen on = settle(s, l);
  const auto presented = laid_out(s, l, on);
  CHECK(presented.count({"weights", 0}) == 1);
  CHECK(presented.count({"output", -1}) == 0);  // the last stage animated is not what the step is about
  s.view.presentation = false;
  CHECK(laid_out(s, l, on) == presented);
}

TEST_CASE("a step about the weights of a scene with no mask shows their scores, not a 'masked' grid that blocks nothing") {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 2);  // "Pixels that compare themselves": rgbd_pixels.json, no mask, about the weights
  StepOnScreen on = settle(s, l);
  const attn::Stage* masked = on.trace.find(attn::StageKind::masked, 0);
  REQUIRE(masked);
  REQUIRE(masked->blocked.size() == 0);  // the scene really has no mask
  auto shown = laid_out(s, l, on);
  CHECK(shown.count({"weights", 0}) == 1);
  CHECK(shown.count({"masked", 0}) == 0);
  // Its input instead: what "masked" was computed from.
  REQUIRE(masked->inputs.size() == 1);
  CHECK(shown.count({attn::to_string(masked->inputs[0].id), 0}) == 1);
  // A scene with a mask keeps its masked grid: lesson 05 step 1, the causal default scene, about the weights.
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[4]));
  model::actions::lesson_step(s, l, 0);
  on = settle(s, l);
  REQUIRE(on.trace.find(attn::StageKind::masked, 0));
  REQUIRE(on.trace.find(attn::StageKind::masked, 0)->blocked.size() > 0);
  shown = laid_out(s, l, on);
  CHECK(shown.count({"weights", 0}) == 1);
  CHECK(shown.count({"masked", 0}) == 1);
}

TEST_CASE("presenting a lesson: step 12's every head shows when the step shows every head") {
  model::AppState s;
  model::LessonState l;
  s.view.presentation = true;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 11);  // "One word, two meanings": click head 1's weights
  const StepOnScreen on = settle(s, l);
  REQUIRE(on.trace.dims.n_heads == 2);
  const auto shown = laid_out(s, l, on);
  CHECK(shown.count({"weights", 0}) == 1);
  CHECK(shown.count({"weights", 1}) == 1);
}

TEST_CASE("presenting: with no lesson the layout follows the animation, a zoom wins") {
  model::AppState s;
  model::LessonState l;
  s.doc.scenario = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json").scenario;
  s.view.presentation = true;
  StepOnScreen on{attn::compute_trace(s.doc.scenario), {}, {}};
  on.tl = model::build_timeline(on.trace, s.granularity);
  on.frame = model::evaluate(on.trace, on.tl, on.tl.total);
  const int last = model::presented_stage(on.tl, on.frame);
  CHECK(model::shown_stages(s, l, on.trace, on.tl, on.frame) == [&] {
    std::vector<int> v = model::stage_with_inputs(on.trace, last);
    std::sort(v.begin(), v.end());
    return v;
  }());
  s.view.zoom_stage = attn::StageRef{attn::StageKind::scores, 0};
  const std::vector<int> zoomed = model::shown_stages(s, l, on.trace, on.tl, on.frame);
  CHECK(std::find(zoomed.begin(), zoomed.end(), on.trace.index_of({attn::StageKind::scores, 0})) != zoomed.end());
  s.view.presentation = false;
  s.view.zoom_stage.reset();
  CHECK(model::shown_stages(s, l, on.trace, on.tl, on.frame).empty());  // the whole pipeline
}

TEST_CASE("clicker: through the step's animation, then its answer, then the next step, back the same way") {
  model::AppState s;
  model::LessonState l;
  s.view.presentation = true;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 3);  // "Outputs are weighted averages": plays weights -> head output, row by row
  StepOnScreen on = settle(s, l);
  const model::StepRange range = model::step_range(l.lesson->current().view, on.trace, on.tl);
  REQUIRE(range.to > range.from);
  CHECK(s.clock.t == doctest::Approx(range.from));
  int presses = 0;
  double before = s.clock.t;
  while (s.clock.t < range.to - 1e-9 && presses < 1000) {
    model::press_nav_key(s, l, model::NavKey::PageDown, &on.trace, on.tl);
    CHECK(s.clock.t > before);  // every press moves the animation on
    CHECK(s.clock.t <= range.to + 1e-9);  // and never past the step's stretch
    before = s.clock.t;
    ++presses;
  }
  CHECK(presses > 1);
  CHECK(l.lesson->step() == 3);
  CHECK_FALSE(l.lesson->revealed());
  model::press_nav_key(s, l, model::NavKey::Space, &on.trace, on.tl);  // the answer
  CHECK(l.lesson->step() == 3);
  CHECK(l.lesson->revealed());
  model::press_nav_key(s, l, model::NavKey::Right, &on.trace, on.tl);  // the next step
  CHECK(l.lesson->step() == 4);

  // Back: to step 4 (index 3) as it ends, then back through its animation.
  on = settle(s, l);
  model::press_nav_key(s, l, model::NavKey::PageUp, &on.trace, on.tl);
  CHECK(l.lesson->step() == 3);
  on = settle(s, l);
  CHECK(s.clock.t == doctest::Approx(range.to));
  CHECK_FALSE(s.clock.playing);
  model::press_nav_key(s, l, model::NavKey::Left, &on.trace, on.tl);
  CHECK(l.lesson->step() == 3);
  CHECK(s.clock.t < range.to);
  for (int i = 0; i < 1000 && l.lesson->step() == 3; ++i) {
    model::press_nav_key(s, l, model::NavKey::PageUp, &on.trace, on.tl);
    if (l.lesson->step() == 3) CHECK(s.clock.t >= range.from - 1e-9);
  }
  CHECK(l.lesson->step() == 2);
}

TEST_CASE("clicker: not presenting, the arrows and Space keep driving the animation") {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 1);
  const StepOnScreen on = settle(s, l);
  s.clock.scrub(on.tl, 0);
  model::press_nav_key(s, l, model::NavKey::Right, &on.trace, on.tl);
  CHECK(s.clock.t > 0);
  CHECK(l.lesson->step() == 1);
  model::press_nav_key(s, l, model::NavKey::Space, &on.trace, on.tl);
  CHECK(s.clock.playing);
  model::press_nav_key(s, l, model::NavKey::PageDown, &on.trace, on.tl);  // a clicker still teaches
  CHECK_FALSE(s.clock.playing);
}

TEST_CASE("Escape leaves presentation in one press, even with a pinned cell") {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 1);  // a number question
  const StepOnScreen on = settle(s, l);
  l.answer_text = "0.0661";
  model::actions::answer_lesson_number(s, l, on.trace);
  REQUIRE(s.pinned.has_value());  // the answer pins the inspector (hidden while presenting)
  s.view.presentation = true;
  model::press_nav_key(s, l, model::NavKey::Escape, &on.trace, on.tl);
  CHECK_FALSE(s.view.presentation);
  // Not presenting, Escape unpins first, then leaves a zoom.
  CHECK(s.pinned.has_value());
  model::press_nav_key(s, l, model::NavKey::Escape, &on.trace, on.tl);
  CHECK_FALSE(s.pinned.has_value());
  CHECK(s.view.zoom_stage.has_value());
  model::press_nav_key(s, l, model::NavKey::Escape, &on.trace, on.tl);
  CHECK_FALSE(s.view.zoom_stage.has_value());
}

TEST_CASE("lesson text fit: shrinks an overflowing panel to fit, grows back, settles") {
  // Height modelled as the s² law with some fixed lines: 1000 px at scale 1.
  auto height = [](float s) { return 100 * s + 900 * s * s; };
  float s = 1;
  for (int frame = 0; frame < 3; ++frame) s = model::fit_lesson_text(s, height(s), 700);
  CHECK(height(s) <= 700);
  CHECK(height(s) >= 0.8 * 700);
  const float settled = s;
  s = model::fit_lesson_text(s, height(s), 700);
  CHECK(s == settled);  // no bouncing
  for (int frame = 0; frame < 3; ++frame) s = model::fit_lesson_text(s, height(s), 2000);
  CHECK(s == 1.0f);  // room again: back to full size, never above
  CHECK(model::fit_lesson_text(1, 1e6f, 100) == 0.5f);  // never unreadably small
}

TEST_CASE("a hidden grid's question row: the row the open question asks about, on its own stage and head only") {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, attn::io::load_lesson(builtin_lessons()[0]));
  model::actions::lesson_step(s, l, 2);  // "Which pixel will greenish far attend to most?": weights, head 0, row 1
  const attn::Trace t = attn::compute_trace(s.doc.scenario);
  CHECK(model::question_row(l, *t.find(attn::StageKind::weights, 0)) == 1);
  CHECK(model::question_row(l, *t.find(attn::StageKind::scores, 0)) == -1);  // another grid
  model::actions::give_up_lesson(s, l);
  CHECK(model::question_row(l, *t.find(attn::StageKind::weights, 0)) == -1);  // answered: nothing hidden
}
