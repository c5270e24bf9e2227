// Resolving a lesson: every step's scene (its own, or the previous step's
// carried over) with its edits applied, then every stage, head, row and
// column the step names checked against that scene's trace. Problems are
// collected across steps so a teacher sees them all at once.
#include <algorithm>
#include <filesystem>

#include "attn/io/excerpt.hpp"
#include "attn/io/lesson_file.hpp"
#include "field_path.hpp"
#include "file_io.hpp"
#include "json_text.hpp"
#include "lesson_parts.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

std::string stage_list(const Trace& t) {
  std::string out;
  for (const Stage& s : t.stages)
    if (out.find("\"" + s.id + "\"") == std::string::npos) out += (out.empty() ? "\"" : ", \"") + s.id + "\"";
  return out;
}

// Checks the stages and cells one step names; adds a line per problem.
class StepChecker {
 public:
  StepChecker(const Trace& trace, std::string path, std::vector<std::string>& problems)
      : trace_(trace), path_(std::move(path)), problems_(problems) {}

  const Stage* stage(const std::string& id, int head, const std::string& field) {
    const Stage* s = head >= 0 ? trace_.find(id, head) : trace_.find(id, -1);
    if (!s && head < 0) s = trace_.find(id, 0);
    if (s) return s;
    if (head >= 0 && trace_.find(id, 0))
      problem(field, "no head " + std::to_string(head) + " (this scene has " + std::to_string(trace_.dims.n_heads) + ")");
    else
      problem(field, "no stage " + quoted_excerpt(id) + " in this scene (its stages: " + stage_list(trace_) + ")");
    return nullptr;
  }

  void cell(const CellSpec& c, const std::string& field) {
    const Stage* s = stage(c.stage, c.head, path_key(field, "stage"));
    if (!s) return;
    const std::string name = s->id + (s->head >= 0 ? " of head " + std::to_string(s->head) : "");
    if (c.row >= s->value.rows())
      problem(path_key(field, "row"), std::to_string(c.row) + " is out of range (" + name + " has " + std::to_string(s->value.rows()) + " rows)");
    if (c.col >= s->value.cols())
      problem(path_key(field, "col"), std::to_string(c.col) + " is out of range (" + name + " has " + std::to_string(s->value.cols()) + " columns)");
  }

  void problem(const std::string& field, const std::string& what) { problems_.push_back(path_ + "." + field + ": " + what); }

 private:
  const Trace& trace_;
  std::string path_;
  std::vector<std::string>& problems_;
};

void check_view(const LessonView& v, StepChecker& check, const Trace& trace) {
  if (!v.focus.stage.empty()) check.cell(v.focus, "view");
  if (v.heads && *v.heads >= trace.dims.n_heads)
    check.problem("view.heads", "no head " + std::to_string(*v.heads) + " (this scene has " + std::to_string(trace.dims.n_heads) + ")");
  for (std::size_t i = 0; i < v.highlight.size(); ++i) check.cell(v.highlight[i], path_index("view.highlight", i));
  if (v.time == LessonView::Time::StageEnd) check.stage(v.time_stage, -1, "view.time.stage");
  if (!v.play_from.empty()) {
    check.stage(v.play_from, -1, "view.play.from");
    check.stage(v.play_to, -1, "view.play.to");
  }
}

void check_question(const LessonQuestion& q, StepChecker& check) {
  const std::string field = q.kind == LessonQuestion::Kind::Number ? "question.cell" : "question";
  if (q.kind != LessonQuestion::Kind::Choice && !q.target.stage.empty()) check.cell(q.target, field);
  if (q.kind == LessonQuestion::Kind::Cell && q.rule == LessonQuestion::Rule::Cells)
    for (std::size_t i = 0; i < q.cells.size(); ++i)
      check.cell({q.target.stage, q.target.head, q.cells[i].first, q.cells[i].second}, path_index("question.answer", i));
  for (std::size_t i = 0; i < q.hide.size(); ++i) check.stage(q.hide[i], -1, path_index("question.hide", i));
}

ScenarioFile scene_of(const LessonStep& step, const json& inline_scene, const std::string& base_dir) {
  if (step.scene_source == "inline") {
    json doc = inline_scene;
    if (!doc.contains("format")) doc["format"] = "attnviz-scenario";
    if (!doc.contains("version")) doc["version"] = 1;
    return parse_scenario(doc.dump());
  }
  const std::filesystem::path p = std::filesystem::path(base_dir) / step.scene_source;
  return load_scenario(p.lexically_normal().string());
}

}  // namespace

int LessonFile::questions() const {
  int n = 0;
  for (const LessonStep& s : steps) n += s.question ? 1 : 0;
  return n;
}

LessonError::LessonError(std::vector<std::string> list)
    : FormatError(list.empty() ? "" : list.front()), problems(std::move(list)) {}

LessonFile parse_lesson(const std::string& text, const std::string& base_dir, const std::string& id) {
  const json doc = parse_json_text(text, kLessonKind);
  const LessonHeader header = read_lesson_header(doc);
  LessonFile lesson;
  lesson.id = id;
  lesson.title = header.title;
  lesson.article = header.article;
  lesson.summary = header.summary;
  std::vector<std::string> problems;
  // Each problem is reported once, at its source: a step whose question is
  // wrong still hands its scene on, and a step that cannot have a scene
  // (the one it carries over has a problem, reported there) is still read
  // for problems of its own.
  auto note = [&](const std::string& problem) {
    if (std::find(problems.begin(), problems.end(), problem) == problems.end()) problems.push_back(problem);
  };
  bool have_scene = false;  // the previous step's scene resolved: it can carry over
  for (std::size_t i = 0; i < doc["steps"].size(); ++i) {
    const std::string path = path_index("steps", i);
    const json& j = doc["steps"][i];
    LessonStep step;
    json inline_scene;
    // 1. The step's scene, its own or carried over, with its edits, computed.
    bool scene_ok = false;
    Trace trace;
    try {
      const StepScene spec = read_step_scene(j, path, &inline_scene);
      step.scene_source = spec.source;
      bool resolved = true;
      if (!spec.source.empty()) {
        try {
          step.scene = scene_of(step, inline_scene, base_dir);
        } catch (const FormatError& e) {
          throw FormatError(path + ".scene: " + e.what());
        }
      } else if (i == 0) {
        throw FormatError(path + ".scene: missing (the first step needs a scene)");
      } else if (!have_scene) {
        resolved = false;  // the scene it carries over has a problem, said at its step
      } else {
        step.scene = lesson.steps.back().scene;
      }
      if (resolved) {
        apply_edits(step.scene, spec.edits, path + ".edits");
        try {
          trace = compute_trace(step.scene.scenario);
        } catch (const std::exception& e) {
          throw FormatError(path + ".scene: cannot be computed: " + e.what());
        }
        scene_ok = true;
      }
    } catch (const FormatError& e) {
      note(e.what());
    }
    have_scene = scene_ok;
    // 2. The rest of the step, read whatever became of its scene.
    bool read_ok = false;
    try {
      LessonStep full = read_step(j, path, &inline_scene);
      full.scene = std::move(step.scene);
      step = std::move(full);
      read_ok = true;
    } catch (const FormatError& e) {
      note(e.what());
    }
    // 3. What the step names, against its scene's trace.
    if (scene_ok && read_ok) {
      try {
        StepChecker check(trace, path, problems);
        check_view(step.view, check, trace);
        if (step.question) check_question(*step.question, check);
        if (step.compare) {
          ScenarioFile b = step.scene;
          apply_edits(b, step.compare->edits, path + ".compare.set");
          step.compare->b = b.scenario;
          const Trace tb = compute_trace(b.scenario);
          if (!trace.find(step.compare->stage, 0) && !trace.find(step.compare->stage, -1) && !tb.find(step.compare->stage, 0) &&
              !tb.find(step.compare->stage, -1))
            check.problem("compare.stage", "no stage " + quoted_excerpt(step.compare->stage) + " in A or B");
        }
      } catch (const FormatError& e) {
        note(e.what());
      } catch (const std::exception& e) {
        note(path + ".compare: B cannot be computed: " + e.what());
      }
    }
    lesson.steps.push_back(std::move(step));
  }
  if (!problems.empty()) throw LessonError(std::move(problems));
  return lesson;
}

LessonFile load_lesson(const std::string& path) {
  const std::filesystem::path p(path);
  std::string text;
  try {
    text = read_text_file(path, kLessonKind);
  } catch (const FormatError& e) {
    throw FormatError(path + ": " + e.what());
  }
  LessonFile lesson;
  try {
    lesson = parse_lesson(text, p.parent_path().string(), p.stem().string());
  } catch (const LessonError& e) {
    std::vector<std::string> lines;
    for (const std::string& line : e.problems) lines.push_back(path + ": " + line);
    throw LessonError(std::move(lines));
  } catch (const FormatError& e) {
    throw FormatError(path + ": " + e.what());
  }
  lesson.path = path;
  return lesson;
}

}  // namespace attn::io
