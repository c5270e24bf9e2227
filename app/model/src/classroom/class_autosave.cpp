// The class autosave as JSON: the session as ClassSession::to_json writes it,
// beside where the class was. A damaged file is refused by name (and left
// for the teacher to look at), never half-read.
#include "model/classroom/class_autosave.hpp"

#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "attn/io/text_file.hpp"

namespace model {

std::string class_autosave_file(const std::string& config_dir) { return config_dir + "/class-session.json"; }

std::string write_class_autosave(const std::string& file, const ClassAutosave& a) {
  const nlohmann::json j = {{"format", "attnviz-class-session"}, {"version", 1},
                            {"session", a.session.to_json()}, {"lesson", a.lesson}, {"step", a.step},
                            {"address", a.address}, {"port", a.port},
                            {"time", static_cast<long long>(std::time(nullptr))}};
  try {
    // Written about once a second while answers arrive: renamed into place
    // (never half a file), without waiting for the disk each time.
    attn::io::write_text_atomically(file, j.dump(), attn::io::Durability::Renamed);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::optional<ClassAutosave> read_class_autosave(const std::string& file, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<ClassAutosave> {
    if (why) *why = reason;
    return std::nullopt;
  };
  std::string text;
  try {
    text = attn::io::read_text(file);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail(file + " is not JSON");
  if (j.value("format", "") != "attnviz-class-session") return fail(file + " is not a class session");
  ClassAutosave a;
  try {
    if (std::string problem = ClassSession::from_json(j.at("session"), &a.session); !problem.empty())
      return fail(file + ": " + problem);
    a.lesson = j.at("lesson").get<std::string>();
    const std::optional<int> step = whole_number(j.at("step"), 0, 1 << 20), port = whole_number(j.at("port"), 0, 65535);
    if (!step || !port) return fail(file + ": the step or port is out of range");
    a.step = *step;
    a.address = j.at("address").get<std::string>();
    a.port = *port;
    a.time = j.contains("time") && j.at("time").is_number_integer() ? j.at("time").get<long long>() : 0;
  } catch (const nlohmann::json::exception& e) {
    return fail(file + ": " + e.what());
  }
  if (a.session.ended()) return fail("the saved class session has ended");
  return a;
}

void remove_class_autosave(const std::string& file) { std::remove(file.c_str()); }

}  // namespace model
