// Lesson catalogue: reading every lesson once at start-up costs a few
// milliseconds (each step's scene is a small trace) and lets the menu show
// a broken lesson's problem instead of failing when it is chosen.
#include "model/lessons/lesson_catalogue.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace model {

namespace fs = std::filesystem;

std::string lessons_dir(const std::string& assets_dir) {
  std::error_code ec;
  const fs::path installed = fs::path(assets_dir) / "lessons";
  if (fs::is_directory(installed, ec)) return installed.string();
  return (fs::path("assets") / "lessons").string();
}

LessonCatalogue load_catalogue(const std::string& dir) {
  LessonCatalogue out;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    LessonEntry entry;
    entry.path = p.string();
    entry.id = p.stem().string();
    entry.title = entry.id;
    try {
      const attn::io::LessonFile lesson = attn::io::load_lesson(entry.path);
      entry.title = lesson.title;
      entry.article = lesson.article;
      entry.summary = lesson.summary;
      entry.steps = static_cast<int>(lesson.steps.size());
      entry.questions = lesson.questions();
    } catch (const std::exception& e) {
      entry.problem = e.what();
    }
    out.lessons.push_back(std::move(entry));
  }
  return out;
}

}  // namespace model
