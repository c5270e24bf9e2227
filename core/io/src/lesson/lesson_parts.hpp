// Internal pieces of the lesson reader, shared by lesson_parse.cpp (the
// structure of the file) and lesson_check.cpp (scenes, edits and the checks
// against each scene's trace).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "attn/io/lesson_file.hpp"
#include "json/json_fields.hpp"

namespace attn::io::detail {

struct LessonHeader {
  std::string title, article, summary;
};

// Field readers shared by the lesson's parts (only_keys is in
// json_fields.hpp); each throws FormatError starting with `path`.
[[noreturn]] void fail(const std::string& path, const std::string& problem);
const nlohmann::json& object_at(const nlohmann::json& j, const std::string& path);
// Far past any scene's rows, columns or heads: a row, column or head index
// is checked against the scene itself once it is computed.
constexpr int kMaxIndex = 10'000'000;

// A step's "train" block: the run's settings (lesson defaults for what it
// leaves out, see docs/lessons.md) and how many steps it runs before pausing.
struct LessonTrain {
  attn::train::TrainConfig config;
  int steps = 0;
};
LessonTrain read_lesson_train(const nlohmann::json& j, const std::string& path);

// Throws FormatError naming the field.
LessonHeader read_lesson_header(const nlohmann::json& doc);
// Reads one step; an inline scene object is copied to *inline_scene.
LessonStep read_step(const nlohmann::json& j, const std::string& path, nlohmann::json* inline_scene);
// Reads only what makes a step's scene: its "scene" (the source; "" when
// carried over from the step before, "inline" for an object, copied to
// *inline_scene) and its "edits". A problem elsewhere in the step (its
// question, say) leaves the chain of scenes whole.
struct StepScene {
  std::string source;
  std::vector<ScenarioEdit> edits;
};
StepScene read_step_scene(const nlohmann::json& j, const std::string& path, nlohmann::json* inline_scene);

}  // namespace attn::io::detail
