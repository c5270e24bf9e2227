// Disk stamps (see disk_stamp.hpp). The hash is 64-bit FNV-1a over the
// bytes: not for security, only to tell "the same file" from "another
// file" at a few hundred MB/s; two different scenario files colliding by
// chance is not a practical worry.
#include "model/files/disk_stamp.hpp"

#include <sys/stat.h>

#include <exception>

#include "attn/io/text_file.hpp"

namespace model {

std::uint64_t content_hash(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h | 1;  // never 0, which stands for "no file"
}

DiskStamp disk_metadata(const std::string& path) {
  DiskStamp s;
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return s;
  s.exists = true;
  s.size = static_cast<std::uint64_t>(st.st_size);
  s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  s.ctime_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  s.device = static_cast<std::uint64_t>(st.st_dev);
  s.inode = static_cast<std::uint64_t>(st.st_ino);
  return s;
}

DiskStamp disk_stamp(const std::string& path) {
  DiskStamp s = disk_metadata(path);
  if (!s.exists) return s;
  try {
    s.hash = content_hash(attn::io::read_text(path));
  } catch (const std::exception&) {
    s = DiskStamp{};  // unreadable now: treated as gone
  }
  return s;
}

DiskChange compare_with_disk(const DiskStamp& known, const std::string& path, DiskStamp* now, bool read_bytes) {
  DiskStamp current = disk_metadata(path);
  DiskChange change = DiskChange::Same;
  if (!current.exists) {
    change = known.exists ? DiskChange::Gone : DiskChange::Same;
  } else if (!read_bytes && current.same_metadata(known) && known.hash != 0) {
    current.hash = known.hash;
  } else {
    current = disk_stamp(path);
    change = !current.exists ? DiskChange::Gone : current.hash == known.hash ? DiskChange::Same : DiskChange::Changed;
  }
  if (now) *now = current;
  return change;
}

StampedScenario load_stamped_scenario(const std::string& path, const attn::Limits& limits) {
  // load_scenario's steps, keeping the bytes long enough to hash them.
  try {
    const DiskStamp before = disk_metadata(path);
    const std::string text = attn::io::read_text(path);
    StampedScenario out{attn::io::parse_scenario(text, limits), disk_metadata(path)};
    // Changed while it was read: the stamp of what was read is unknown, so
    // the next check reads the file again and finds it changed.
    out.stamp.hash = before.same_metadata(out.stamp) ? content_hash(text) : 0;
    return out;
  } catch (const attn::io::FormatError& e) {
    throw attn::io::FormatError(path + ": " + e.what());
  }
}

}  // namespace model
