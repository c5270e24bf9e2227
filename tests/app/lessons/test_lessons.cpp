// Lessons in the model layer: answers are checked against the scene's real
// numbers (right, wrong, tolerance edges, ties, retry, give up), Next waits
// for the question, progress round-trips and survives a corrupt file, the
// step's view reaches AppState, and the text markup parses.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "attn/io/lesson_file.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "model/lessons/rich_text.hpp"

namespace {

using attn::io::LessonQuestion;
using Status = model::StepAnswer::Status;
namespace fs = std::filesystem;

const std::string kLesson = std::string(ATTNVIZ_ASSETS_DIR) + "/../tests/data/lessons/test_lesson.json";

attn::io::LessonFile test_lesson() { return attn::io::load_lesson(kLesson); }

// An independent softmax of one row of the masked logits.
double softmax_at(const attn::Stage& masked, int r, int c) {
  double max = -INFINITY, sum = 0;
  for (int j = 0; j < masked.value.cols(); ++j) max = std::max(max, masked.value(r, j));
  for (int j = 0; j < masked.value.cols(); ++j) sum += std::exp(masked.value(r, j) - max);
  return std::exp(masked.value(r, c) - max) / sum;
}

}  // namespace

TEST_CASE("lesson answers: a number is right within the tolerance, edges included") {
  const attn::io::LessonFile l = test_lesson();
  const LessonQuestion& q = *l.steps[0].question;
  const attn::Trace t = attn::compute_trace(l.steps[0].scene.scenario);
  const double truth = softmax_at(*t.find(attn::StageKind::masked, 0), 2, 1);  // independent of the core's softmax
  CHECK(model::expected_number(q, t) == doctest::Approx(truth).epsilon(1e-12));
  CHECK(model::check_number(q, t, truth).right);
  CHECK(model::check_number(q, t, truth + 0.01).right);   // at the edge
  CHECK(model::check_number(q, t, truth - 0.01).right);
  CHECK_FALSE(model::check_number(q, t, truth + 0.0101).right);
  CHECK_FALSE(model::check_number(q, t, NAN).right);
  const model::Verdict low = model::check_number(q, t, truth - 0.2);
  CHECK(low.why.find("too low") != std::string::npos);
}

TEST_CASE("lesson answers: click the largest cell of a row, ties all count") {
  const attn::io::LessonFile l = test_lesson();
  const LessonQuestion& q = *l.steps[1].question;  // the key "down" attends to most
  const attn::Trace t = attn::compute_trace(l.steps[1].scene.scenario);
  const attn::Stage& w = *t.find(attn::StageKind::weights, 0);
  int best = 0;
  for (int c = 1; c < 4; ++c)
    if (w.value(3, c) > w.value(3, best)) best = c;
  CHECK(model::check_cell(q, t, 3, best).right);
  for (int c = 0; c < 4; ++c)
    if (c != best) CHECK_FALSE(model::check_cell(q, t, 3, c).right);
  CHECK_FALSE(model::check_cell(q, t, 2, best).right);  // another row is not an answer
  LessonQuestion tie = q;
  tie.target.row = 0;  // "the" sees only itself under the causal mask: one weight of 1
  CHECK(model::right_cells(tie, t) == std::vector<std::pair<int, int>>{{0, 0}});
  tie.rule = LessonQuestion::Rule::Min;
  tie.target.row = 1;  // row "cat": the two masked zeros tie for the smallest
  CHECK(model::right_cells(tie, t).size() == 2);
  // A wrong click names no number while the grid is still hidden.
  const model::Verdict wrong = model::check_cell(q, t, 3, (best + 1) % 4);
  CHECK(wrong.why.find('.') != std::string::npos);
  CHECK(wrong.why.find("0.") == std::string::npos);
}

TEST_CASE("lesson answers: multiple choice") {
  const attn::io::LessonFile l = test_lesson();
  const LessonQuestion& q = *l.steps[2].question;
  CHECK(model::check_choice(q, 1).right);
  CHECK_FALSE(model::check_choice(q, 0).right);
  CHECK_FALSE(model::check_choice(q, 2).right);
}

TEST_CASE("lesson session: wrong, retry, right, Next waits for the answer, give up reveals") {
  model::LessonSession s(test_lesson());
  const attn::Trace t0 = attn::compute_trace(s.current().scene.scenario);
  CHECK_FALSE(s.revealed());
  CHECK_FALSE(s.can_next());
  CHECK_FALSE(s.answer_number(t0, 0.9, "0.9").right);
  CHECK(s.current_answer().status == Status::Wrong);
  CHECK_FALSE(s.can_next());
  const double truth = model::expected_number(*s.current().question, t0);
  CHECK(s.answer_number(t0, truth, "x").right);
  CHECK(s.current_answer().attempts == 2);
  CHECK(s.can_next());
  CHECK(s.answer_number(t0, 5, "5").right);  // settled: a later answer changes nothing
  CHECK(s.current_answer().attempts == 2);
  REQUIRE(s.go_to(1));
  s.give_up();
  CHECK(s.current_answer().status == Status::GaveUp);
  CHECK(s.revealed());
  CHECK(s.answered_right() == 1);
}

TEST_CASE("lesson session: progress round-trips and never resumes past an open question") {
  model::LessonSession a(test_lesson());
  const attn::Trace t0 = attn::compute_trace(a.current().scene.scenario);
  a.answer_number(t0, model::expected_number(*a.current().question, t0), "0.338");
  a.go_to(1);
  const nlohmann::json saved = a.progress();
  model::LessonSession b(test_lesson());
  b.restore(saved);
  CHECK(b.step() == 1);
  CHECK(b.answer(0).status == Status::Right);
  CHECK(b.answer(0).given == "0.338");
  nlohmann::json ahead = saved;
  ahead["step"] = 2;  // step 1's question is still open
  model::LessonSession c(test_lesson());
  c.restore(ahead);
  CHECK(c.step() == 1);
  model::LessonSession d(test_lesson());
  d.restore(nlohmann::json::parse(R"({"step": "x", "answers": {"zz": 1, "9": {"status": "right"}}})"));
  CHECK(d.step() == 0);
  CHECK(d.answered_right() == 0);
}

TEST_CASE("lesson hidden stages: the asked stage and everything computed from it") {
  const attn::io::LessonFile l = test_lesson();
  const attn::Trace t = attn::compute_trace(l.steps[0].scene.scenario);
  std::vector<std::string> ids;
  for (int i : model::hidden_stages(*l.steps[0].question, t)) ids.push_back(attn::to_string(t.stages[static_cast<size_t>(i)].id));
  CHECK(ids == std::vector<std::string>{"weights", "head_output", "concat", "output"});
  LessonQuestion listed = *l.steps[2].question;
  CHECK(model::hidden_stages(listed, t).empty());  // a choice hides what it lists, nothing else
  listed.hide = {"scores"};
  listed.hide_given = true;
  REQUIRE(model::hidden_stages(listed, t).size() == 1);
}

TEST_CASE("lesson actions: entering a step sets the scene, the view and the timing") {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, test_lesson());
  REQUIRE(l.lesson);
  CHECK(s.doc.title == "Your first attention: four words, one head, causal");
  REQUIRE(s.view.zoom_stage.has_value());
  CHECK(s.view.zoom_stage->id == attn::StageKind::weights);
  REQUIRE(l.highlights.size() == 1);
  CHECK(l.highlights[0].stage == "masked");
  CHECK(l.view_request.has_value());
  CHECK_FALSE(s.view.show_editor);
  model::actions::lesson_step(s, l, 2);
  CHECK(s.doc.scenario.scale == attn::ScaleMode::None);  // step three's edit
  model::actions::lesson_step(s, l, 0);
  CHECK(s.doc.scenario.scale == attn::ScaleMode::SqrtDk);  // and back
  // A settled number question pins its cell: the inspector shows the arithmetic.
  const attn::Trace t = attn::compute_trace(s.doc.scenario);
  l.answer_text = "0.0";
  model::actions::answer_lesson_number(s, l, t);
  CHECK_FALSE(s.pinned.has_value());
  model::actions::give_up_lesson(s, l);
  REQUIRE(s.pinned.has_value());
  CHECK(s.pinned->stage.id == attn::StageKind::weights);
  CHECK(s.pinned->row == 2);
}

TEST_CASE("lesson actions: a step that inspects a cell pins it and shows the inspector, and the next step's scene drops the pin") {
  attn::io::LessonFile lesson = test_lesson();
  lesson.steps[1].view.inspect = {"scores", 0, 3, 1};
  model::AppState s;
  model::LessonState l;
  s.view.show_inspector = false;
  model::actions::start_lesson(s, l, std::move(lesson));
  CHECK_FALSE(s.pinned.has_value());
  model::actions::lesson_step(s, l, 1);
  REQUIRE(s.pinned.has_value());
  CHECK(s.pinned->stage.id == attn::StageKind::scores);
  CHECK(s.pinned->stage.head == 0);
  CHECK(s.pinned->row == 3);
  CHECK(s.pinned->col == 1);
  CHECK(s.view.show_inspector);
  CHECK(s.view.inspector_to_why);
  model::actions::lesson_step(s, l, 2);
  CHECK_FALSE(s.pinned.has_value());
  CHECK_FALSE(s.view.inspector_to_why);
}

TEST_CASE("lessons feature: opening another document ends the lesson, a scene shown in its place does not") {
  model::AppState s;
  model::LessonsFeature lessons;
  model::LessonState& l = lessons.state;
  s.builtin_text = attn::io::scenario_to_json(test_lesson().steps[0].scene).dump();
  model::actions::start_lesson(s, l, test_lesson());
  model::actions::lesson_step(s, l, 1);
  lessons.follow(s);
  REQUIRE(l.lesson);
  CHECK(l.lesson->step() == 1);
  // A trained layer or a model's head shown in the pipeline: the lesson stays.
  model::actions::show_scene(s, test_lesson().steps[0].scene, "trained layer 0");
  lessons.follow(s);
  CHECK(l.lesson);
  // The built-in lesson opened (as File > Open does a file): the lesson ends.
  model::actions::open_builtin(s);
  CHECK(l.lesson);  // until the feature hears of it, on the next frame
  lessons.follow(s);
  CHECK_FALSE(l.lesson);
  CHECK(l.highlights.empty());
  // A lesson started afterwards is not ended by that earlier opening.
  model::actions::start_lesson(s, l, test_lesson());
  lessons.follow(s);
  CHECK(l.lesson);
}

TEST_CASE("lesson timing: a stage's end, and a play range on the real timeline") {
  const attn::io::LessonFile l = test_lesson();
  const attn::Trace t = attn::compute_trace(l.steps[0].scene.scenario);
  const model::Timeline tl = model::build_timeline(t, model::Granularity::Stage);
  attn::io::LessonView v;
  v.time = attn::io::LessonView::Time::StageEnd;
  v.time_stage = "scores";
  const double scores_end = model::step_timing(v, t, tl).t;
  v.time_stage = "weights";
  CHECK(model::step_timing(v, t, tl).t > scores_end);
  v.play_from = "scaled";
  v.play_to = "weights";
  const model::StepTiming range = model::step_timing(v, t, tl);
  CHECK(range.t >= scores_end - 1e-9);
  CHECK(range.play_to > range.t);
  model::Clock clock;
  clock.play_range(tl, range.t, range.play_to);
  clock.tick(tl, 1e6);
  CHECK(clock.t == doctest::Approx(range.play_to));  // stops at the end of the range
  CHECK_FALSE(clock.playing);
}

TEST_CASE("lesson export range: a step's play range, else its focus stage's steps, else everything") {
  const attn::io::LessonFile l = test_lesson();
  const attn::Trace t = attn::compute_trace(l.steps[0].scene.scenario);
  const model::Timeline tl = model::build_timeline(t, model::Granularity::Stage);
  attn::io::LessonView v;
  model::StepRange r = model::step_range(v, t, tl);
  CHECK(r.from == 0);
  CHECK(r.to == doctest::Approx(tl.total));
  v.focus.stage = "scores";  // the steps that build the scores, read off the timeline
  r = model::step_range(v, t, tl);
  const int scores = t.index_of({attn::StageKind::scores, 0});
  bool found = false;
  for (size_t k = 0; k < tl.stage_order.size(); ++k)
    if (tl.stage_order[k] == scores) {
      CHECK(r.from == doctest::Approx(tl.spans[k].start));
      CHECK(r.to == doctest::Approx(tl.spans[k].end));
      found = true;
    }
  CHECK(found);
  v.play_from = "scaled";
  v.play_to = "weights";
  const model::StepTiming play = model::step_timing(v, t, tl);
  r = model::step_range(v, t, tl);
  CHECK(r.from == doctest::Approx(play.t));
  CHECK(r.to == doctest::Approx(play.play_to));
}

TEST_CASE("progress store: saved between runs, a corrupt file starts afresh with a notice") {
  const fs::path dir = fs::temp_directory_path() / "attnviz_test_progress";
  fs::remove_all(dir);
  const std::string path = (dir / "progress.json").string();
  {
    model::ProgressStore store(path);
    CHECK(store.problem().empty());
    store.put("lesson_a", {{"step", 3}});
  }
  CHECK(model::ProgressStore(path).get("lesson_a")["step"] == 3);
  std::ofstream(path) << "{ not json";
  model::ProgressStore reset(path);
  CHECK(reset.problem().find("starts afresh") != std::string::npos);
  CHECK(reset.get("lesson_a").empty());
  CHECK(fs::exists(path + ".corrupt"));
}

TEST_CASE("rich text: bold, emphasis, math with scripts, unclosed markers stay text") {
  using S = model::RichSpan::Style;
  using X = model::RichSpan::Script;
  const std::vector<model::RichSpan> spans = model::parse_rich_text("The **softmax** of *sat*: `q·k / √d_k` and `d_{model}^T`.");
  const std::vector<model::RichSpan> want = {{"The ", S::Plain, X::Normal},   {"softmax", S::Bold, X::Normal},
                                           {" of ", S::Plain, X::Normal},   {"sat", S::Emphasis, X::Normal},
                                           {": ", S::Plain, X::Normal},     {"q·k / √d", S::Math, X::Normal},
                                           {"k", S::Math, X::Sub},          {" and ", S::Plain, X::Normal},
                                           {"d", S::Math, X::Normal},       {"model", S::Math, X::Sub},
                                           {"T", S::Math, X::Super},        {".", S::Plain, X::Normal}};
  CHECK(spans == want);
  const std::vector<model::RichSpan> loose = model::parse_rich_text("a * b and `x");
  REQUIRE(loose.size() == 1);
  CHECK(loose[0].text == "a * b and `x");
  CHECK(model::plain_text(model::parse_rich_text("`√d_k`")) == "√d_k");
}
