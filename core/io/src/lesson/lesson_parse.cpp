// Reads the structure of a lesson file: header, steps, views, questions.
// Each step is read on its own so one bad step does not hide the problems
// of the others; lesson_check.cpp then resolves scenes and checks the
// stages and cells each step names against the scene's trace.
#include "lesson/lesson_parts.hpp"

#include <cmath>

#include "json/field_path.hpp"
#include "json/format_header.hpp"
#include "json/json_fields.hpp"
#include "json/json_text.hpp"

namespace attn::io::detail {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& problem) { throw FormatError(path + ": " + problem); }

const json& object_at(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object, got " + describe(j));
  return j;
}

namespace {

CellSpec read_cell(const json& j, const std::string& path, bool stage_required = true) {
  object_at(j, path);
  only_keys(j, path, {"stage", "head", "row", "col"});
  CellSpec c;
  if (j.contains("stage")) c.stage = read_string(j["stage"], path_key(path, "stage"));
  else if (stage_required) fail(path_key(path, "stage"), "missing (a stage id such as \"weights\")");
  if (j.contains("head")) c.head = read_int(j["head"], path_key(path, "head"), 0, kMaxIndex);
  if (j.contains("row")) c.row = read_int(j["row"], path_key(path, "row"), 0, kMaxIndex);
  if (j.contains("col")) c.col = read_int(j["col"], path_key(path, "col"), 0, kMaxIndex);
  return c;
}

LessonView read_view(const json& j, const std::string& path) {
  object_at(j, path);
  only_keys(j, path, {"stage", "head", "heads", "highlight", "inspect", "time", "play", "granularity", "panels"});
  LessonView v;
  if (j.contains("stage")) v.focus.stage = read_string(j["stage"], path_key(path, "stage"));
  if (j.contains("head")) v.focus.head = read_int(j["head"], path_key(path, "head"), 0, kMaxIndex);
  if (j.contains("heads")) {
    const json& h = j["heads"];
    if (h.is_string() && h == "all") v.heads = -1;
    else v.heads = read_int(h, path_key(path, "heads"), 0, kMaxIndex);
  }
  if (j.contains("highlight")) {
    const json& list = j["highlight"];
    if (!list.is_array()) fail(path_key(path, "highlight"), "expected an array of cells, got " + describe(list));
    for (std::size_t i = 0; i < list.size(); ++i) v.highlight.push_back(read_cell(list[i], path_index(path_key(path, "highlight"), i)));
  }
  if (j.contains("inspect")) {
    v.inspect = read_cell(j["inspect"], path_key(path, "inspect"));
    if (v.inspect.row < 0 || v.inspect.col < 0) fail(path_key(path, "inspect"), "needs \"row\" and \"col\" (one cell)");
  }
  if (j.contains("time")) {
    const json& t = j["time"];
    const std::string at = path_key(path, "time");
    if (t == "end") v.time = LessonView::Time::End;
    else if (t == "start") v.time = LessonView::Time::Start;
    else if (t.is_number()) {
      v.time = LessonView::Time::Seconds;
      v.seconds = read_number(t, at);
      if (v.seconds < 0) fail(at, "must not be negative, got " + t.dump());
    } else if (t.is_object()) {
      only_keys(t, at, {"stage"});
      if (!t.contains("stage")) fail(path_key(at, "stage"), "missing");
      v.time = LessonView::Time::StageEnd;
      v.time_stage = read_string(t["stage"], path_key(at, "stage"));
    } else {
      fail(at, "expected \"start\", \"end\", seconds or {\"stage\": id}, got " + describe(t));
    }
  }
  if (j.contains("play")) {
    const std::string at = path_key(path, "play");
    const json& p = object_at(j["play"], at);
    only_keys(p, at, {"from", "to"});
    if (!p.contains("from") || !p.contains("to")) fail(at, "expected {\"from\": stage, \"to\": stage}");
    v.play_from = read_string(p["from"], path_key(at, "from"));
    v.play_to = read_string(p["to"], path_key(at, "to"));
  }
  if (j.contains("granularity"))
    v.granularity = read_choice<std::string>(j["granularity"], path_key(path, "granularity"),
                                             {{"stage", "stage"}, {"row", "row"}, {"cell", "cell"}});
  if (j.contains("panels")) {
    const std::string at = path_key(path, "panels");
    const json& p = object_at(j["panels"], at);
    only_keys(p, at, {"editor", "inspector", "why_scale", "hull", "flash_tiles", "kv_cache", "train_why"});
    for (const auto& item : p.items()) {
      if (!item.value().is_boolean()) fail(path_key(at, item.key()), "expected true or false, got " + describe(item.value()));
      v.panels.emplace_back(item.key(), item.value().get<bool>());
    }
  }
  return v;
}

LessonQuestion read_question(const json& j, const std::string& path) {
  object_at(j, path);
  LessonQuestion q;
  if (!j.contains("kind")) fail(path_key(path, "kind"), "missing (\"cell\", \"number\", \"choice\" or \"head\")");
  q.kind = read_choice<LessonQuestion::Kind>(j["kind"], path_key(path, "kind"),
                                             {{"cell", LessonQuestion::Kind::Cell},
                                              {"number", LessonQuestion::Kind::Number},
                                              {"choice", LessonQuestion::Kind::Choice},
                                              {"head", LessonQuestion::Kind::Head}});
  if (!j.contains("prompt")) fail(path_key(path, "prompt"), "missing (the question, in a sentence)");
  q.prompt = read_string(j["prompt"], path_key(path, "prompt"));
  if (j.contains("explain")) q.explain = read_string(j["explain"], path_key(path, "explain"));
  if (j.contains("hide")) {
    q.hide = read_labels(j["hide"], path_key(path, "hide"), 64);
    q.hide_given = true;
  }
  switch (q.kind) {
    case LessonQuestion::Kind::Cell: {
      only_keys(j, path, {"kind", "prompt", "explain", "hide", "stage", "head", "row", "col", "answer"});
      json target = json::object();
      for (const char* k : {"stage", "head", "row", "col"})
        if (j.contains(k)) target[k] = j[k];
      q.target = read_cell(target, path);
      if (!j.contains("answer")) fail(path_key(path, "answer"), "missing (\"max\", \"min\" or a list of cells)");
      const json& a = j["answer"];
      const std::string at = path_key(path, "answer");
      if (a == "max") q.rule = LessonQuestion::Rule::Max;
      else if (a == "min") q.rule = LessonQuestion::Rule::Min;
      else if (a.is_array() && !a.empty()) {
        q.rule = LessonQuestion::Rule::Cells;
        for (std::size_t i = 0; i < a.size(); ++i) {
          const CellSpec c = read_cell(a[i], path_index(at, i), false);
          if (c.row < 0 || c.col < 0) fail(path_index(at, i), "a right answer needs both \"row\" and \"col\"");
          q.cells.emplace_back(c.row, c.col);
        }
      } else {
        fail(at, "expected \"max\", \"min\" or a list of cells [{\"row\": r, \"col\": c}], got " + describe(a));
      }
      if ((q.rule != LessonQuestion::Rule::Cells) && q.target.row < 0 && q.target.col < 0)
        fail(at, "\"max\"/\"min\" need the question's \"row\" or \"col\" to say where to look");
      break;
    }
    case LessonQuestion::Kind::Number: {
      only_keys(j, path, {"kind", "prompt", "explain", "hide", "cell", "answer", "tolerance"});
      if (!j.contains("cell") && !j.contains("answer")) fail(path_key(path, "cell"), "missing (the cell whose value is asked)");
      if (j.contains("cell")) {
        q.target = read_cell(j["cell"], path_key(path, "cell"));
        if (q.target.row < 0 || q.target.col < 0) fail(path_key(path, "cell"), "needs \"row\" and \"col\"");
      }
      if (j.contains("answer")) q.number = read_number(j["answer"], path_key(path, "answer"));
      if (!j.contains("tolerance")) fail(path_key(path, "tolerance"), "missing (how far from the answer is still right)");
      q.tolerance = read_number(j["tolerance"], path_key(path, "tolerance"));
      if (q.tolerance < 0) fail(path_key(path, "tolerance"), "must not be negative");
      break;
    }
    case LessonQuestion::Kind::Choice: {
      only_keys(j, path, {"kind", "prompt", "explain", "hide", "choices", "answer"});
      if (!j.contains("choices")) fail(path_key(path, "choices"), "missing (two or more answers to choose from)");
      const json& choices = j["choices"];
      if (choices.is_array() && (choices.size() < 2 || choices.size() > 12))
        fail(path_key(path, "choices"), "expected 2 to 12 answers, got " + std::to_string(choices.size()));
      q.choices = read_labels(choices, path_key(path, "choices"), 12);
      if (!j.contains("answer")) fail(path_key(path, "answer"), "missing (the index of the right choice, from 0)");
      q.answer = read_int(j["answer"], path_key(path, "answer"), 0, kMaxIndex);
      if (q.answer >= static_cast<int>(q.choices.size()))
        fail(path_key(path, "answer"), std::to_string(q.answer) + " is out of range (there are " + std::to_string(q.choices.size()) +
                                           " choices, counted from 0)");
      break;
    }
    case LessonQuestion::Kind::Head: {
      // Answered in the Train view; no pipeline stage is asked about, so none is hidden.
      only_keys(j, path, {"kind", "prompt", "explain", "min_score"});
      if (j.contains("min_score")) {
        q.min_score = read_number(j["min_score"], path_key(path, "min_score"));
        if (q.min_score < 0 || q.min_score > 1)
          fail(path_key(path, "min_score"), "expected a share of attention from 0 to 1, got " + j["min_score"].dump());
      }
      break;
    }
  }
  return q;
}

LessonCompare read_compare(const json& j, const std::string& path) {
  object_at(j, path);
  only_keys(j, path, {"set", "stage", "a", "b"});
  LessonCompare c;
  if (!j.contains("set")) fail(path_key(path, "set"), "missing (the edits that make B from this step's scene)");
  c.edits = read_edits(j["set"], path_key(path, "set"));
  if (j.contains("stage")) c.stage = read_string(j["stage"], path_key(path, "stage"));
  if (j.contains("a")) c.label_a = read_string(j["a"], path_key(path, "a"));
  if (j.contains("b")) c.label_b = read_string(j["b"], path_key(path, "b"));
  return c;
}

}  // namespace

StepScene read_step_scene(const json& j, const std::string& path, json* inline_scene) {
  object_at(j, path);
  StepScene out;
  if (j.contains("scene")) {
    const json& scene = j["scene"];
    if (scene.is_string()) out.source = scene.get<std::string>();
    else if (scene.is_object()) {
      out.source = "inline";
      *inline_scene = scene;
    } else {
      fail(path_key(path, "scene"), "expected a path to a scenario file or a scenario object, got " + describe(scene));
    }
  }
  if (j.contains("edits")) out.edits = read_edits(j["edits"], path_key(path, "edits"));
  return out;
}

LessonStep read_step(const json& j, const std::string& path, json* inline_scene) {
  object_at(j, path);
  only_keys(j, path, {"title", "text", "scene", "edits", "view", "question", "compare", "train"});
  LessonStep s;
  if (!j.contains("title")) fail(path_key(path, "title"), "missing (a short heading)");
  s.title = read_string(j["title"], path_key(path, "title"));
  if (!j.contains("text")) fail(path_key(path, "text"), "missing (what the step says)");
  s.text = read_string(j["text"], path_key(path, "text"));
  StepScene scene = read_step_scene(j, path, inline_scene);
  s.scene_source = std::move(scene.source);
  s.edits = std::move(scene.edits);
  if (j.contains("view")) s.view = read_view(j["view"], path_key(path, "view"));
  if (j.contains("question")) s.question = read_question(j["question"], path_key(path, "question"));
  if (j.contains("compare")) s.compare = read_compare(j["compare"], path_key(path, "compare"));
  if (j.contains("train")) {
    const LessonTrain t = read_lesson_train(j["train"], path_key(path, "train"));
    s.train = t.config;
    s.train_steps = t.steps;
  }
  if (s.question && s.question->kind == LessonQuestion::Kind::Head && !s.train)
    fail(path_key(path_key(path, "question"), "kind"),
         "a \"head\" question is answered by clicking a head in the Train view, so the step needs a \"train\" block");
  return s;
}

LessonHeader read_lesson_header(const json& doc) {
  if (!doc.is_object()) throw FormatError("expected a JSON object at the top level, got " + describe(doc));
  only_keys(doc, "", {"format", "version", "title", "article", "summary", "steps"});
  check_format_header(doc, "attnviz-lesson", 1, "lesson");
  LessonHeader h;
  for (const char* key : {"title", "article"}) {
    if (!doc.contains(key)) fail(key, "missing");
  }
  h.title = read_string(doc["title"], "title");
  h.article = read_string(doc["article"], "article");
  if (doc.contains("summary")) h.summary = read_string(doc["summary"], "summary");
  if (!doc.contains("steps")) fail("steps", "missing (a list of steps)");
  if (!doc["steps"].is_array() || doc["steps"].empty()) fail("steps", "expected a non-empty array of steps, got " + describe(doc["steps"]));
  if (doc["steps"].size() > kMaxLessonSteps)
    fail("steps", std::to_string(doc["steps"].size()) + " steps; a lesson has 1 to " + std::to_string(kMaxLessonSteps) + " steps");
  return h;
}

}  // namespace attn::io::detail
