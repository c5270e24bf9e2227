// Which kind of attnviz file is being read, so that every message about it
// names that kind: a lesson that is a folder "is a directory, not a lesson
// file", an empty model "expected a JSON model object". The readers below
// the formats (file_io, text_checks, json_text) used to say "scenario" for
// every file.
#pragma once

#include <cstddef>
#include <string>

namespace attn::io::detail {

struct FileKind {
  const char* noun;                // "scenario", "lesson", "model"; "" for JSON of no set kind
  std::size_t nesting_needed = 0;  // deepest nesting a valid file has, said when refusing deeper; 0: not said
};

inline constexpr FileKind kScenarioKind{"scenario", 5};
inline constexpr FileKind kLessonKind{"lesson"};  // inline scenes and edits: no fixed depth
inline constexpr FileKind kModelKind{"model", 8};  // weights.layers[i].heads[h].w_q[r][c] in the document
inline constexpr FileKind kJsonKind{""};           // settings, progress and other app files

// "a scenario file" / "a JSON file".
std::string a_file_of(const FileKind& kind);
// "a JSON scenario" / "JSON text": what the file's text should be.
std::string json_of(const FileKind& kind);

}  // namespace attn::io::detail
