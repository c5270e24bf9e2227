// Whole-file reads and atomic writes with FormatError messages that carry
// the OS reason. Kept apart from the format code so parsing stays testable
// on strings alone.
#pragma once

#include "attn/io/text_file.hpp"

#include <cstdint>
#include <string>

#include "files/file_kind.hpp"

namespace attn::io::detail {

// Largest file load_scenario will read; a full-size teaching scenario is a
// few megabytes, so anything near this is a mistake or an attack.
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 30;

// Why `path` cannot be read as a file of `kind`, without the path prefix
// ("cannot open: No such file or directory", "is a directory, not a lesson
// file", "cannot open: a symlink loop ..."), or "" when it can be opened.
std::string unreadable_reason(const std::string& path, const FileKind& kind);

// Throws FormatError("cannot open: <reason>" etc.), without the path prefix;
// `kind` names the file ("is a directory, not a lesson file").
std::string read_text_file(const std::string& path, const FileKind& kind);

// The message for a save refused by the folder `dir` that would hold `path`
// (the temporary file cannot be made there), from the OS error `err`, e.g.
// "cannot write /a/b/s.json: the folder /a/b is read-only (permission
// denied); save it elsewhere". The file itself may well be writable.
std::string folder_refusal(const std::string& path, const std::string& dir, int err);

// Writes to a temporary file in the same directory, then renames it over
// `path`, so a failed save leaves the previous file intact.
void write_text_file_atomically(const std::string& path, const std::string& text,
                                Durability durability = Durability::ToDisk);

}  // namespace attn::io::detail
