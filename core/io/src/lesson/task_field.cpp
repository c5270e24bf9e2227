// Reads a task name (see task_field.hpp). The names come from the training
// engine itself, so a task added there is accepted and listed here.
#include "lesson/task_field.hpp"

#include <stdexcept>
#include <vector>

#include "attn/io/excerpt.hpp"
#include "attn/io/scenario_file.hpp"
#include "json/json_fields.hpp"

namespace attn::io::detail {

train::TaskKind read_task_name(const nlohmann::json& j, const std::string& path) {
  std::vector<std::string> names;
  for (auto kind : {train::TaskKind::Copy, train::TaskKind::Reverse, train::TaskKind::Sort,
                    train::TaskKind::PreviousToken, train::TaskKind::Induction, train::TaskKind::KeyValue})
    names.push_back(train::task_name(kind));
  if (!j.is_string()) throw FormatError(path + ": expected a task name (" + list_choices(names) + "), got " + describe(j));
  try {
    return train::task_from_name(j.get<std::string>());
  } catch (const std::invalid_argument&) {
    throw FormatError(path + ": unknown task " + quoted_excerpt(j.get<std::string>()) + " (expected " +
                      list_choices(names) + ")");
  }
}

}  // namespace attn::io::detail
