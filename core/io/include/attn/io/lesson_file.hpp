// The published lesson format ("attnviz-lesson", version 1; docs/lessons.md):
// an ordered list of steps, each with text, a scene (a scenario file or one
// written inline, plus edits), the view it sets and at most one question.
// Loading resolves every step's scene and checks every stage and cell the
// lesson names against the shape of that scene's real trace, so a teacher's
// typo is reported with its step and field before a student ever sees it.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/io/scenario_file.hpp"
#include "attn/train/trainer.hpp"

namespace attn::io {

// A stage, and optionally one row, column or cell of it. `head` is -1 when
// not given (per-head stages then mean head 0).
struct CellSpec {
  std::string stage;
  int head = -1;
  int row = -1, col = -1;  // -1: all rows / all columns
};

// {"set": "x[0][1]", "to": 3}: a field of the scenario file and its new value.
struct ScenarioEdit {
  std::string path;
  nlohmann::json value;
};

// A lesson has at most this many steps. Its progress dots become a bar past
// a few rows, so the panel draws any number; the limit keeps a lesson a
// lesson (checking one reads every step's scene).
constexpr std::size_t kMaxLessonSteps = 5000;

struct LessonView {
  CellSpec focus;                       // stage to zoom to; empty: the whole pipeline
  std::optional<int> heads;             // which head lanes show: -1 all, h one head
  std::vector<CellSpec> highlight;
  // A cell the inspector pins on entering the step (its arithmetic and why
  // it has its value, beside the grids); empty stage: none.
  CellSpec inspect;
  enum class Time { End, Start, Seconds, StageEnd };
  Time time = Time::End;
  double seconds = 0;                   // Time::Seconds
  std::string time_stage;               // Time::StageEnd
  std::string play_from, play_to;       // both set: play that range on entering
  std::string granularity;              // "", "stage", "row" or "cell"
  std::vector<std::pair<std::string, bool>> panels;  // "editor", "inspector", "why_scale", "hull", "flash_tiles", "kv_cache"
};

struct LessonQuestion {
  enum class Kind { Cell, Number, Choice, Head };
  Kind kind = Kind::Choice;
  std::string prompt, explain;
  std::vector<std::string> hide;        // stage ids kept hidden until answered
  bool hide_given = false;              // false: the asked stage and everything after it
  // Cell: click within `target` (row and/or col may restrict it).
  CellSpec target;
  enum class Rule { Max, Min, Cells };
  Rule rule = Rule::Max;
  std::vector<std::pair<int, int>> cells;  // Rule::Cells: the right (row, col)s
  // Number: the value of `target` (a single cell), or `number` when given.
  std::optional<double> number;
  double tolerance = 0;
  // Choice.
  std::vector<std::string> choices;
  int answer = 0;
  // Head: click the induction head's grid in the Train view; right once the
  // clicked head has the highest induction score and it reaches min_score.
  double min_score = 0.5;
};

struct LessonCompare {
  std::vector<ScenarioEdit> edits;      // B = this step's scene with these edits
  std::string stage = "weights";
  std::string label_a = "A", label_b = "B";
  Scenario b;                           // resolved at load
};

struct LessonStep {
  std::string title, text;
  std::string scene_source;             // the path as written, "inline", or "" (carried over)
  std::vector<ScenarioEdit> edits;
  LessonView view;
  std::optional<LessonQuestion> question;
  std::optional<LessonCompare> compare;
  // "train": entering the step opens the Train view with these settings, a
  // run pausing by itself after train_steps steps.
  std::optional<attn::train::TrainConfig> train;
  int train_steps = 0;
  ScenarioFile scene;                   // resolved at load: the scene with every edit so far
};

struct LessonFile {
  std::string id;                       // the file name without ".json": progress is kept under it
  std::string path;
  std::string title, article, summary;
  std::vector<LessonStep> steps;
  int questions() const;
};

// Problems found in a lesson, one line each ("steps[3].question.row: ...").
struct LessonError : FormatError {
  explicit LessonError(std::vector<std::string> problems);
  std::vector<std::string> problems;
};

// Lets another thread follow a lesson being checked and stop it: `steps` is
// set once the file is read, `steps_done` counts the steps checked, and
// setting `cancel` makes the check throw attn::Cancelled before the next step.
struct LessonProgress {
  std::atomic<int> steps{0}, steps_done{0};
  std::atomic<bool> cancel{false};
};

// Parses, resolves scenes (paths relative to `base_dir`) and edits, and
// checks every stage and cell against the shapes of the scenes' traces (no
// trace is computed, unless a scene's values come near overflowing; see
// lesson_check.cpp). Throws LessonError listing every problem, or
// FormatError for unreadable JSON.
LessonFile parse_lesson(const std::string& text, const std::string& base_dir, const std::string& id = "lesson",
                        LessonProgress* progress = nullptr);
LessonFile load_lesson(const std::string& path, LessonProgress* progress = nullptr);

// Applies edits to a scenario through its file form, so a value means what
// it would mean in the file. Throws FormatError naming the edit (`where`).
void apply_edits(ScenarioFile& file, const std::vector<ScenarioEdit>& edits, const std::string& where);

// Reads `[{"set": ..., "to": ...}, ...]`; throws FormatError naming `path`.
std::vector<ScenarioEdit> read_edits(const nlohmann::json& j, const std::string& path);

}  // namespace attn::io
