// A lesson step's "train" block: the settings the Train view opens with.
// Every field is checked here with the lesson's own names (`layers`, not
// the engine's `n_layers`), so a teacher's mistake names the field they
// wrote; whatever the engine still refuses is reported under the same names.
#include <stdexcept>
#include <utility>

#include "json/field_path.hpp"
#include "json/json_fields.hpp"
#include "lesson/lesson_parts.hpp"
#include "lesson/task_field.hpp"

namespace attn::io::detail {

using nlohmann::json;

namespace {

constexpr int kMaxSteps = 100000;  // a lesson run that pauses within minutes, not hours

// The defaults documented in docs/lessons.md (the Train view's own).
attn::train::TrainConfig lesson_defaults(attn::train::TaskKind kind) {
  attn::train::TrainConfig c;
  c.task.kind = kind;
  c.task.vocab = 16;
  c.task.length = 8;
  c.task.random_offset = kind == attn::train::TaskKind::Induction;
  c.model.d_model = 64;
  c.model.n_heads = 4;
  c.model.n_layers = 2;
  c.model.learned_positions = false;
  c.learning_rate = 3e-3;
  c.seed = 1;
  return c;
}

// The engine's field names ("task.vocab: ...") as the lesson spells them.
void fail_as_lesson_field(const std::string& path, const std::string& problem) {
  static const std::pair<const char*, const char*> names[] = {
      {"task.vocab: ", "symbols"},  {"model.vocab: ", "symbols"},   {"task.length: ", "length"},
      {"model.seq_len: ", "length"}, {"model.n_heads: ", "heads"}, {"model.n_layers: ", "layers"},
      {"learning_rate: ", "learning_rate"}};
  for (const auto& [engine, lesson] : names) {
    const std::string prefix = engine;
    if (problem.compare(0, prefix.size(), prefix) == 0) fail(path_key(path, lesson), problem.substr(prefix.size()));
  }
  fail(path, problem);
}

}  // namespace

LessonTrain read_lesson_train(const json& j, const std::string& path) {
  object_at(j, path);
  only_keys(j, path, {"task", "length", "symbols", "layers", "heads", "positions", "random_start", "seed",
                      "learning_rate", "steps"});
  const std::string task_at = path_key(path, "task");
  if (!j.contains("task")) fail(task_at, "missing (the task to train on, e.g. \"induction\")");
  const attn::train::TaskKind kind = read_task_name(j["task"], task_at);
  LessonTrain t{lesson_defaults(kind), 1500};
  attn::train::TrainConfig& c = t.config;
  if (j.contains("symbols"))
    c.task.vocab = read_int(j["symbols"], path_key(path, "symbols"), 2, attn::train::kMaxTaskVocab);
  if (j.contains("length"))
    c.task.length = read_int(j["length"], path_key(path, "length"), 1, attn::train::kMaxTaskLength);
  if (j.contains("layers")) c.model.n_layers = read_int(j["layers"], path_key(path, "layers"), 1, 2);
  if (j.contains("heads")) {
    const std::string at = path_key(path, "heads");
    c.model.n_heads = read_int(j["heads"], at, 1, c.model.d_model);
    if (c.model.d_model % c.model.n_heads != 0 || c.model.n_heads > c.model.d_model)
      fail(at, "expected a number that divides the model width " + std::to_string(c.model.d_model) +
                   " (1, 2, 4, 8, 16, 32 or 64), got " + j["heads"].dump());
  }
  if (j.contains("positions"))
    c.model.learned_positions = read_choice<bool>(j["positions"], path_key(path, "positions"),
                                                  {{"sinusoidal", false}, {"learned", true}});
  if (j.contains("random_start")) {
    const std::string at = path_key(path, "random_start");
    if (!j["random_start"].is_boolean()) fail(at, "expected true or false, got " + describe(j["random_start"]));
    if (kind != attn::train::TaskKind::Induction) fail(at, "only the \"induction\" task has a random start");
    c.task.random_offset = j["random_start"].get<bool>();
  }
  if (j.contains("seed")) c.seed = static_cast<std::uint64_t>(read_int(j["seed"], path_key(path, "seed"), 0, kMaxIndex));
  if (j.contains("learning_rate")) {
    const std::string at = path_key(path, "learning_rate");
    c.learning_rate = read_number(j["learning_rate"], at);
    if (!(c.learning_rate > 0 && c.learning_rate <= 1))
      fail(at, "expected a number above 0 and at most 1, got " + j["learning_rate"].dump());
  }
  if (j.contains("steps")) {
    const std::string at = path_key(path, "steps");
    t.steps = read_int(j["steps"], at, 1, kMaxSteps);
  }
  const std::string problem = attn::train::validate_train_config(c);
  if (!problem.empty()) fail_as_lesson_field(path, problem);
  return t;
}

}  // namespace attn::io::detail
