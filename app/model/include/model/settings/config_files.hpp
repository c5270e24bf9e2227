// Where attnviz keeps what it remembers between runs ($XDG_CONFIG_HOME/attnviz,
// else ~/.config/attnviz), and the per-lesson progress stored there.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace model {

// The folder, or "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string config_dir();

// Lesson progress, one entry per lesson id, in one JSON file. A missing file
// is empty; a corrupt one is set aside and reset, with a notice to show.
class ProgressStore {
 public:
  ProgressStore() = default;              // remembers nothing (tests, screenshots)
  explicit ProgressStore(std::string path);

  nlohmann::json get(const std::string& lesson_id) const;
  void put(const std::string& lesson_id, const nlohmann::json& progress);
  // Why the stored progress was reset, once; "" when it loaded fine.
  const std::string& problem() const { return problem_; }

 private:
  std::string path_;
  nlohmann::json all_ = nlohmann::json::object();
  std::string problem_;
};

}  // namespace model
