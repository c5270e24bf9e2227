// A command's -o file, written so that a failure never costs the old one.
// `attn model attention -o out.json` used to truncate out.json in place and
// ignore write errors: `-o /dev/full` exited 0 with nothing written, and a
// full disk left a cut-off file where the old one had been.
#pragma once

#include <fstream>
#include <ostream>
#include <string>

namespace attn::cli {

// A regular file (or a new one) is written to a temporary file in its folder
// and renamed over it by commit(), so the old file stays whole until the new
// one is complete on disk (a symlink is followed and stays a link). A special
// file that cannot be renamed over (/dev/full, /dev/stdout, a FIFO) is
// written directly; "-" is standard output. Every failure (opening, a write,
// the flush, the close, the rename) throws CliError (exit 2) naming `option`
// and the output, with the temporary removed.
// Whether `path` is written directly rather than renamed over: "-", an
// existing file that is not a regular one (a device, a FIFO), or a name
// under /dev or /proc (/dev/stdout may lead to a regular file, but one the
// shell opened, perhaps to append to: replacing it would lose what it held).
bool writes_in_place(const std::string& path);

class OutputFile {
 public:
  OutputFile(std::string option, std::string path);
  ~OutputFile();  // removes the temporary unless commit() succeeded
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  // The temporary file that commit() renames into place, for a library that
  // writes a whole file by name (libzip); "" when the output is written in
  // place. Whatever sits at this path when commit() runs is what lands.
  const std::string& temporary() const { return temp_; }
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what, int err);
  void discard_temp();

  std::string option_, path_;
  std::string target_;  // what the temporary is renamed over; "" when written directly
  std::string temp_;    // "" when there is none (or it was renamed)
  std::ofstream file_;
};

}  // namespace attn::cli
