// Whole-file reads with a size limit and atomic writes (temporary file, then
// rename), for every file attnviz keeps: scenarios, lessons, settings and
// progress. Failures throw FormatError with the OS reason.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace attn::io {

std::string read_text(const std::string& path);
// Why read_text would refuse `path` before reading it ("cannot open: a
// symlink loop ...", "is a directory, not a JSON file"), or "" when it is a
// regular file that can be opened: for checking a file named on a command line.
std::string why_unreadable(const std::string& path);
// How far a write has gone when it returns. ToDisk: the bytes and the
// rename are flushed, so a saved file survives a power cut (every file of
// the user's). Renamed: a reader never sees half a file, and nothing waits
// for the disk; for files rewritten every frame and read at once (the
// layout and state dumps the UI tests read).
enum class Durability { ToDisk, Renamed };
// Writes to a temporary file beside `path`, then renames it over `path`,
// so a failed write leaves the previous file intact. Throws FormatError
// naming the path and the reason.
void write_text_atomically(const std::string& path, const std::string& text, Durability durability = Durability::ToDisk);

// Whether two paths name one file: the same name, or another name for it (a
// symlink, a hard link). Device and inode decide when `a` exists; a path
// that does not exist yet is compared by its canonical form. For refusing
// an output that would overwrite an input.
bool same_file(const std::string& a, const std::string& b);

// JSON text of one of the app's own files (settings, lesson progress) with
// the guards and the readable messages of the published formats: a
// FormatError such as "line 3, column 7: ...", never nlohmann's raw text.
// `kind` names the file in messages ("settings"); "" says JSON.
nlohmann::json parse_app_json(const std::string& text, const char* kind = "");

}  // namespace attn::io
