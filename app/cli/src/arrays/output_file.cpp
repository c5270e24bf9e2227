// Atomic, checked output files (output_file.hpp).
#include "arrays/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cli_error.hpp"

namespace attn::cli {

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path == "-") {
    f_ = stdout;
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) fail("is a folder");
    f_ = std::fopen(path.c_str(), "wb");  // a device or a pipe: no rename possible
    if (!f_) fail(std::string("cannot be opened (") + std::strerror(errno) + ")");
    return;
  }
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) fail(std::string("cannot be written (") + std::strerror(errno) + ")");
  temp_ = pattern;
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    ::close(fd);
    fail(std::string("cannot be written (") + std::strerror(errno) + ")");
  }
}

OutputFile::~OutputFile() {
  if (f_ && f_ != stdout && !committed_) std::fclose(f_);
  if (!temp_.empty() && !committed_) ::unlink(temp_.c_str());
}

void OutputFile::fail(const std::string& what) {
  throw CliError("-o: " + path_ + " " + what + "; nothing was written there");
}

void OutputFile::write(const void* bytes, std::size_t n) {
  if (n && std::fwrite(bytes, 1, n, f_) != n) fail(std::string("could not be written (") + std::strerror(errno) + ")");
}

void OutputFile::commit() {
  const bool flushed = std::fflush(f_) == 0;
  const int err = errno;
  if (f_ == stdout) {
    committed_ = true;
    if (!flushed) fail(std::string("could not be written (") + std::strerror(err) + ")");
    return;
  }
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!flushed || !closed) fail(std::string("could not be written (") + std::strerror(flushed ? errno : err) + ")");
  if (!temp_.empty()) {
    // mkstemp makes it 0600; the file gets what a plain open would have given it.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(temp_.c_str(), 0666 & ~mask);
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) fail(std::string("could not be replaced (") + std::strerror(errno) + ")");
  }
  committed_ = true;
}

}  // namespace attn::cli
