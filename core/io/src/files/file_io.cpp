// File reading and durable writing (see file_io.hpp).
//
// Reading refuses anything but a regular file before opening it: /dev/zero
// would be read until memory runs out and a FIFO with no writer would block
// forever. Reading stops at the size limit even if the file grows meanwhile,
// and at the first bytes that cannot be JSON text.
//
// Writing keeps what the user has: the data is written to a temporary file in
// the same folder (rename is only atomic within one file system), flushed to
// disk with fsync, given the old file's owner, group and permissions, renamed over the target
// and the folder synced, so a crash leaves either the old file or the new one.
// A symlink is followed (the link stays a link), and a file with several hard
// links is rewritten in place (a rename would split the links), after a copy
// of the new text is safely on disk beside it.
#include "files/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "files/text_checks.hpp"

namespace attn::io::detail {

namespace fs = std::filesystem;

namespace {

std::string os_reason(int err) { return err != 0 ? std::strerror(err) : "unknown error"; }

// "cannot open: <reason>"; a loop of symlinks is named as one (the system's
// "Too many levels of symbolic links" hides that the links go round).
std::string cannot_open(int err) {
  if (err == ELOOP) return "cannot open: a symlink loop (the links lead back to themselves, " + os_reason(err) + ")";
  return "cannot open: " + os_reason(err);
}

// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void write_all(int fd, const std::string& text, const std::string& path, Durability durability) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw FormatError("cannot write " + path + ": " + os_reason(errno));
    done += static_cast<std::size_t>(n);
  }
  if (durability == Durability::ToDisk && ::fsync(fd) != 0) throw FormatError("cannot write " + path + ": " + os_reason(errno));
}

void sync_folder(const fs::path& dir) {
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY)};
  if (d.fd >= 0) ::fsync(d.fd);  // best effort: some file systems refuse it
}

// A short unique name in `dir`, created exclusively (mkstemp): short so a
// 250-character file name still has room, exclusive so two saves never meet.
// It fails for reasons of the folder, not of the file, so the message says so.
std::string make_temp(const fs::path& dir, const std::string& path, Fd* out) {
  std::string name = (dir / ".attnviz-XXXXXX").string();
  out->fd = ::mkstemp(name.data());
  if (out->fd < 0) throw FormatError(folder_refusal(path, dir.string(), errno));
  return name;
}

// Gives the temporary the old file's owner and group, so a save by root (or
// by anyone in the file's group) does not take the file over. Only root may
// give a file away; anyone else keeps what they can (the group, when they
// are in it) and the save goes on: refusing it, or rewriting the file in
// place without the safety of a rename, would lose more than the owner.
// Returns whether at least the group was kept.
bool keep_owner(int fd, const struct stat& old) {
  return ::fchown(fd, old.st_uid, old.st_gid) == 0 || ::fchown(fd, static_cast<uid_t>(-1), old.st_gid) == 0;
}

}  // namespace

std::string folder_refusal(const std::string& path, const std::string& dir, int err) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(dir, ec);
  fs::path shown = (ec ? fs::path(dir) : absolute).lexically_normal();
  if (shown.has_relative_path() && shown.filename().empty()) shown = shown.parent_path();  // "/a/b/." -> "/a/b"
  const std::string where = shown.string();
  std::string why;
  switch (err) {
    case EACCES:
    case EPERM:
      why = "the folder " + where + " is read-only (permission denied); save it elsewhere";
      break;
    case EROFS:
      why = "the folder " + where + " is on a read-only file system; save it elsewhere";
      break;
    case ENOENT:
      why = "the folder " + where + " does not exist";
      break;
    case ENOTDIR:
      why = where + " is not a folder";
      break;
    case ENOSPC:
    case EDQUOT:
      why = "the disk holding " + where + " is full (" + os_reason(err) + ")";
      break;
    default:
      why = "cannot create a file in the folder " + where + " (" + os_reason(err) + ")";
  }
  return "cannot write " + path + ": " + why;
}

std::string unreadable_reason(const std::string& path, const FileKind& kind) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return cannot_open(errno);
  if (S_ISDIR(st.st_mode)) return "is a directory, not " + a_file_of(kind);
  if (!S_ISREG(st.st_mode)) return "is not a regular file (a device, pipe or socket); attnviz reads files saved on disk";
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxFileBytes)
    return "file is too large (" + std::to_string(st.st_size) + " bytes; files are limited to 1 GiB)";
  if (::access(path.c_str(), R_OK) != 0) return cannot_open(errno);
  return "";
}

std::string read_text_file(const std::string& path, const FileKind& kind) {
  if (const std::string why = unreadable_reason(path, kind); !why.empty()) throw FormatError(why);
  // Non-blocking, so a file swapped for a FIFO after the check cannot hang us.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK)};
  if (f.fd < 0) throw FormatError(cannot_open(errno));
  struct stat opened {};
  if (::fstat(f.fd, &opened) != 0 || !S_ISREG(opened.st_mode))
    throw FormatError("is not a regular file (it changed while being opened)");
  // Every file attnviz reads is JSON text: a file whose first character
  // cannot begin JSON, or with a NUL byte, is refused as soon as that is
  // read (a 1000 MB file of NULs at byte 0), not once all of it is in memory.
  std::string text;
  bool started = false;  // the first character begins JSON
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FormatError("cannot read: " + os_reason(errno));
    if (n == 0) break;
    const std::size_t before = text.size();
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxFileBytes) throw FormatError("file is too large (more than 1 GiB)");
    // The first character first: binary junk is "not UTF-8" at its byte 0
    // even when a NUL follows a few bytes on.
    if (!started && (started = check_json_start(text, /*whole=*/false, kind)))
      text.reserve(static_cast<std::size_t>(opened.st_size));
    check_no_nul(text, before, kind);
  }
  if (!started) check_json_start(text, /*whole=*/true, kind);
  return text;
}

void write_text_file_atomically(const std::string& path, const std::string& text, Durability durability) {
  std::error_code ec;
  // Follow a symlink: the file it points at is what the user means.
  fs::path target = fs::path(path);
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  struct stat old {};
  const bool exists = ::stat(target.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode)) throw FormatError("cannot write " + path + ": it is not a regular file");

  Fd temp;
  const std::string temp_path = make_temp(dir, path, &temp);
  try {
    write_all(temp.fd, text, path, durability);
    // mkstemp creates 0600; a new file gets the usual 0644 less the umask,
    // an existing one keeps its own permissions.
    // Owner first: a chown clears the set-user-ID bit that fchmod then restores.
    mode_t mode = 0;
    if (exists) {
      keep_owner(temp.fd, old);
      mode = old.st_mode & 07777;
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    if (::fchmod(temp.fd, mode) != 0) throw FormatError("cannot write " + path + ": " + os_reason(errno));
  } catch (...) {
    ::unlink(temp_path.c_str());
    throw;
  }
  ::close(temp.fd);
  temp.fd = -1;

  if (exists && old.st_nlink > 1) {
    // Several names share this file: rewrite it in place so they all see the
    // new text. The complete copy stays beside it until that has succeeded.
    Fd in_place{::open(target.c_str(), O_WRONLY | O_TRUNC)};
    if (in_place.fd < 0) throw FormatError("cannot write " + path + ": " + os_reason(errno) + " (the new text is in " + temp_path + ")");
    write_all(in_place.fd, text, path + " (the new text is also in " + temp_path + ")", durability);
    ::unlink(temp_path.c_str());
    return;
  }
  if (::rename(temp_path.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp_path.c_str());
    throw FormatError("cannot write " + path + ": " + os_reason(err));
  }
  if (durability == Durability::ToDisk) sync_folder(dir);
}

}  // namespace attn::io::detail

namespace attn::io {

std::string read_text(const std::string& path) { return detail::read_text_file(path, detail::kJsonKind); }
std::string why_unreadable(const std::string& path) { return detail::unreadable_reason(path, detail::kJsonKind); }
void write_text_atomically(const std::string& path, const std::string& text, Durability durability) {
  detail::write_text_file_atomically(path, text, durability);
}

}  // namespace attn::io
