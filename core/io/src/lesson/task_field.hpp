// A training task named in a file: a model file's "task.name" and a lesson
// step's "train.task". One reader so both word a wrong name the same way,
// list the tasks there are, and quote a long wrong name only in part.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "attn/train/task.hpp"

namespace attn::io::detail {

// Throws FormatError starting with `path`, e.g. `task.name: unknown task
// "addition" (expected "copy", ... or "key-value")`.
train::TaskKind read_task_name(const nlohmann::json& j, const std::string& path);

}  // namespace attn::io::detail
