// Internal pieces of the lesson reader, shared by lesson_parse.cpp (the
// structure of the file) and lesson_check.cpp (scenes, edits and the checks
// against each scene's trace).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "attn/io/lesson_file.hpp"

namespace attn::io::detail {

struct LessonHeader {
  std::string title, article, summary;
};

// Throws FormatError naming the field.
LessonHeader read_lesson_header(const nlohmann::json& doc);
// Reads one step; an inline scene object is copied to *inline_scene.
LessonStep read_step(const nlohmann::json& j, const std::string& path, nlohmann::json* inline_scene);

}  // namespace attn::io::detail
