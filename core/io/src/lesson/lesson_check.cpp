// Resolving a lesson: every step's scene (its own, or the previous step's
// carried over) with its edits applied, then every stage, head, row and
// column the step names checked against the shape of that scene's trace.
// Problems are collected across steps so a teacher sees them all at once.
//
// No step's trace is computed: what the checks read (which stages and heads
// exist, how many rows and columns each has) follows from the scene's
// dimensions (attn/compute/trace_shape.hpp), and whether it can be computed at all
// from a bound on its values (attn/compute/overflow_bound.hpp). A 500-step lesson on
// a 1024-token scene took 19 s and 413 MB when every trace was computed.
#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "attn/io/excerpt.hpp"
#include "attn/io/lesson_file.hpp"
#include "attn/compute/overflow_bound.hpp"
#include "attn/compute/trace_shape.hpp"
#include "json/field_path.hpp"
#include "files/file_io.hpp"
#include "json/json_text.hpp"
#include "lesson/lesson_parts.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

std::string stage_list(const TraceShape& t) {
  std::string out;
  for (const StageShape& s : t.stages) {
    const std::string name(name_of(s.id));
    if (out.find("\"" + name + "\"") == std::string::npos) out += (out.empty() ? "\"" : ", \"") + name + "\"";
  }
  return out;
}

// Checks the stages and cells one step names; adds a line per problem.
class StepChecker {
 public:
  StepChecker(const TraceShape& trace, std::string path, std::vector<std::string>& problems)
      : trace_(trace), path_(std::move(path)), problems_(problems) {}

  const StageShape* stage(const std::string& id, int head, const std::string& field) {
    const StageShape* s = head >= 0 ? trace_.find_named(id, head) : trace_.find_named(id, -1);
    if (!s && head < 0) s = trace_.find_named(id, 0);
    if (s) return s;
    if (head >= 0 && trace_.find_named(id, 0))
      problem(field, "no head " + std::to_string(head) + " (this scene has " + std::to_string(trace_.dims.n_heads) + ")");
    else
      problem(field, "no stage " + quoted_excerpt(id) + " in this scene (its stages: " + stage_list(trace_) + ")");
    return nullptr;
  }

  void cell(const CellSpec& c, const std::string& field) {
    const StageShape* s = stage(c.stage, c.head, path_key(field, "stage"));
    if (!s) return;
    const std::string name = std::string(name_of(s->id)) + (s->head >= 0 ? " of head " + std::to_string(s->head) : "");
    if (c.row >= s->rows)
      problem(path_key(field, "row"), std::to_string(c.row) + " is out of range (" + name + " has " + std::to_string(s->rows) + " rows)");
    if (c.col >= s->cols)
      problem(path_key(field, "col"), std::to_string(c.col) + " is out of range (" + name + " has " + std::to_string(s->cols) + " columns)");
  }

  void problem(const std::string& field, const std::string& what) { problems_.push_back(path_ + "." + field + ": " + what); }

 private:
  const TraceShape& trace_;
  std::string path_;
  std::vector<std::string>& problems_;
};

void check_view(const LessonView& v, StepChecker& check, const TraceShape& trace) {
  if (!v.focus.stage.empty()) check.cell(v.focus, "view");
  if (v.heads && *v.heads >= trace.dims.n_heads)
    check.problem("view.heads", "no head " + std::to_string(*v.heads) + " (this scene has " + std::to_string(trace.dims.n_heads) + ")");
  for (std::size_t i = 0; i < v.highlight.size(); ++i) check.cell(v.highlight[i], path_index("view.highlight", i));
  if (!v.inspect.stage.empty()) check.cell(v.inspect, "view.inspect");
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

// What a step's checks read of its scene: its trace's shape, once it is
// known the trace can be computed. compute_trace runs only for a scene the
// bound cannot clear (values near the largest double), so that an overflow
// is reported as before, naming its stage and cell.
TraceShape shape_of(const Scenario& s) {
  if (std::string e = validate(s); !e.empty()) throw std::invalid_argument(e);
  if (!proved_finite(s)) compute_trace(s);
  return trace_shape(s);
}

// The scenario files a lesson names, each read once: steps on one scene
// (500 steps on a 1024-token scene) took a parse of its 900 KB each, and a
// file changed while the lesson is read cannot give its steps two versions.
class SceneFiles {
 public:
  explicit SceneFiles(std::string base_dir) : base_dir_(std::move(base_dir)) {}

  ScenarioFile scene_of(const LessonStep& step, const json& inline_scene) {
    if (step.scene_source == "inline") {
      json doc = inline_scene;
      if (!doc.contains("format")) doc["format"] = "attnviz-scenario";
      if (!doc.contains("version")) doc["version"] = 1;
      return parse_scenario(doc.dump());
    }
    const std::string path = (std::filesystem::path(base_dir_) / step.scene_source).lexically_normal().string();
    auto [it, first] = read_.try_emplace(path);
    if (first) {
      try {
        it->second.file = load_scenario(path);
      } catch (const FormatError& e) {
        it->second.error = e.what();
      }
    }
    if (!it->second.error.empty()) throw FormatError(it->second.error);
    return it->second.file;
  }

 private:
  struct Read {
    ScenarioFile file;
    std::string error;  // why it could not be read, said again at each step naming it
  };
  std::string base_dir_;
  std::map<std::string, Read> read_;
};

}  // namespace

int LessonFile::questions() const {
  int n = 0;
  for (const LessonStep& s : steps) n += s.question ? 1 : 0;
  return n;
}

LessonError::LessonError(std::vector<std::string> list)
    : FormatError(list.empty() ? "" : list.front()), problems(std::move(list)) {}

LessonFile parse_lesson(const std::string& text, const std::string& base_dir, const std::string& id,
                        LessonProgress* progress) {
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
  SceneFiles files(base_dir);
  if (progress) progress->steps = static_cast<int>(doc["steps"].size());
  for (std::size_t i = 0; i < doc["steps"].size(); ++i) {
    if (progress && progress->cancel) throw Cancelled();
    const std::string path = path_index("steps", i);
    const json& j = doc["steps"][i];
    LessonStep step;
    json inline_scene;
    // 1. The step's scene, its own or carried over, with its edits, computed.
    bool scene_ok = false;
    TraceShape trace;
    try {
      const StepScene spec = read_step_scene(j, path, &inline_scene);
      step.scene_source = spec.source;
      bool resolved = true;
      if (!spec.source.empty()) {
        try {
          step.scene = files.scene_of(step, inline_scene);
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
          trace = shape_of(step.scene.scenario);
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
    // 3. What the step names, against the shape of its scene's trace.
    if (scene_ok && read_ok) {
      try {
        StepChecker check(trace, path, problems);
        check_view(step.view, check, trace);
        if (step.question) check_question(*step.question, check);
        if (step.compare) {
          ScenarioFile b = step.scene;
          apply_edits(b, step.compare->edits, path + ".compare.set");
          step.compare->b = b.scenario;
          const TraceShape tb = shape_of(b.scenario);
          if (!trace.find_named(step.compare->stage, 0) && !trace.find_named(step.compare->stage, -1) &&
              !tb.find_named(step.compare->stage, 0) && !tb.find_named(step.compare->stage, -1))
            check.problem("compare.stage", "no stage " + quoted_excerpt(step.compare->stage) + " in A or B");
        }
      } catch (const FormatError& e) {
        note(e.what());
      } catch (const std::exception& e) {
        note(path + ".compare: B cannot be computed: " + e.what());
      }
    }
    lesson.steps.push_back(std::move(step));
    if (progress) progress->steps_done = static_cast<int>(i) + 1;
  }
  if (!problems.empty()) throw LessonError(std::move(problems));
  return lesson;
}

LessonFile load_lesson(const std::string& path, LessonProgress* progress) {
  const std::filesystem::path p(path);
  std::string text;
  try {
    text = read_text_file(path, kLessonKind);
  } catch (const FormatError& e) {
    throw FormatError(path + ": " + e.what());
  }
  LessonFile lesson;
  try {
    lesson = parse_lesson(text, p.parent_path().string(), p.stem().string(), progress);
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
