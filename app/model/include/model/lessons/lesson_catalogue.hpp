// The lessons attnviz ships (assets/lessons/*.json, in file-name order),
// loaded and checked once so the Lessons menu and the start page can list
// them with their titles, sizes and any problem a file has.
#pragma once

#include <string>
#include <vector>

#include "attn/io/lesson_file.hpp"

namespace model {

struct LessonEntry {
  std::string path;
  std::string id, title, article, summary;
  int steps = 0, questions = 0;
  std::string problem;  // why the file cannot be used; "" when it loaded
};

struct LessonCatalogue {
  std::vector<LessonEntry> lessons;
};

// Every *.json in `dir`; a file with a problem is listed with it, never fatal.
LessonCatalogue load_catalogue(const std::string& dir);

// The lessons folder: `assets_dir`/lessons, or ./assets/lessons when the
// first does not exist (a build run from the source tree).
std::string lessons_dir(const std::string& assets_dir);

}  // namespace model
