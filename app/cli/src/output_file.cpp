// Checked, atomic -o files (see output_file.hpp). io::write_text_atomically
// does the same for text already in memory; this streams, because a model's
// attention weights are written number by number (several GB for GPT-2 at
// 1024 tokens) and never held as one string.
#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "cli_error.hpp"

namespace attn::cli {

namespace fs = std::filesystem;

bool writes_in_place(const std::string& path) {
  if (path == "-") return true;
  std::error_code ec;
  const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (absolute.rfind("/dev/", 0) == 0 || absolute.rfind("/proc/", 0) == 0) return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

OutputFile::OutputFile(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {
  if (path_ == "-") return;
  errno = 0;
  if (writes_in_place(path_)) {  // nothing to rename over
    file_.open(path_, std::ios::binary);
    if (!file_) fail("cannot open it", errno);
    return;
  }
  std::error_code ec;
  fs::path target(path_);
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  struct stat old {};
  const bool exists = ::stat(target.c_str(), &old) == 0;
  if (exists && S_ISDIR(old.st_mode)) fail("it is a folder", 0);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = (dir / ".attn-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail("cannot create a file in the folder " + dir.string(), errno);
  temp_ = name;
  target_ = target.string();
  // mkstemp makes 0600: an existing file keeps its permissions, a new one gets 0666 less the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const int chmod_failed = ::fchmod(fd, exists ? (old.st_mode & 07777) : (0666 & ~mask));
  const int err = errno;
  ::close(fd);
  if (chmod_failed != 0) fail("cannot set the permissions", err);
  file_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!file_) fail("cannot open a temporary file in " + dir.string(), errno);
}

OutputFile::~OutputFile() { discard_temp(); }

std::ostream& OutputFile::stream() { return path_ == "-" ? std::cout : file_; }

void OutputFile::commit() {
  stream().flush();
  if (path_ == "-") {
    if (!std::cout) fail("writing failed", errno);
    return;
  }
  file_.close();
  if (file_.fail()) fail("writing failed", errno);
  if (temp_.empty()) return;
  // On disk before the rename, so a crash leaves the old file or the new one.
  const int fd = ::open(temp_.c_str(), O_RDONLY);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  const int err = errno;
  if (fd >= 0) ::close(fd);
  if (!synced) fail("writing failed", err);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot replace it", errno);
  temp_.clear();
}

void OutputFile::discard_temp() {
  if (temp_.empty()) return;
  if (file_.is_open()) file_.close();
  ::unlink(temp_.c_str());
  temp_.clear();
}

void OutputFile::fail(const std::string& what, int err) {
  const bool had_temp = !temp_.empty();
  discard_temp();
  std::string message = option_ + ": cannot write " + (path_ == "-" ? "standard output" : path_) + ": " + what;
  if (err != 0) message += std::string(" (") + std::strerror(err) + ")";
  if (had_temp) message += "; the old file, if any, is unchanged";
  throw CliError(message);
}

}  // namespace attn::cli
