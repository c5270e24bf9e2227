#pragma once
// Where `attn model` writes a file: a temporary file beside the target,
// renamed over it only once every byte is written and flushed, so a failure
// (a full disk, an interrupt) leaves the old file as it was and no half
// file behind. Every write is checked: `-o /dev/full` used to exit 0 with
// nothing written. A target that is not a regular file (/dev/stdout, a FIFO,
// /dev/full) is written in place, with the same checks.
#include <cstdio>
#include <string>

namespace attn::cli {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // "-": standard output
  ~OutputFile();                                  // removes the temporary unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* bytes, std::size_t n);
  void write(const std::string& text) { write(text.data(), text.size()); }
  // The temporary's path (for a library that writes a whole file itself);
  // empty when writing in place.
  const std::string& temporary() const { return temp_; }
  std::FILE* stream() { return f_; }
  // Flushes, closes and renames into place. Throws CliError naming the target.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what);
  std::string path_, temp_;
  std::FILE* f_ = nullptr;
  bool committed_ = false;
};

}  // namespace attn::cli
