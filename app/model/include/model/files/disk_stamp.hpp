// What the open file looked like on disk when the document was read from it
// or last saved to it, so the app can tell when someone else has changed it
// since: another attnviz window, an editor, a `git checkout`. Size and
// modification time are cheap to check but can both change with the same
// bytes (a touch, a copy saved over it) and, on coarse clocks, stay the
// same with new bytes; so metadata only says where to look, and a hash of
// the bytes decides.
#pragma once

#include <cstdint>
#include <string>

#include "attn/io/scenario_file.hpp"

namespace model {

struct DiskStamp {
  bool exists = false;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  // The inode's change time: `cp -p`, `rsync -t` and `tar` put an old mtime
  // back over new bytes, but no program can set ctime.
  std::int64_t ctime_ns = 0;
  std::uint64_t device = 0, inode = 0;  // a save by rename gives a new inode
  std::uint64_t hash = 0;               // of the bytes; 0 with exists == false
  // Same size, times and file: the bytes are taken to be the same (no read).
  bool same_metadata(const DiskStamp& o) const {
    return exists == o.exists && size == o.size && mtime_ns == o.mtime_ns && ctime_ns == o.ctime_ns &&
           device == o.device && inode == o.inode;
  }
};

std::uint64_t content_hash(const std::string& bytes);

// The file's metadata (hash 0): a stat, no read.
DiskStamp disk_metadata(const std::string& path);
// Metadata and the hash of what is there now (reads the file).
DiskStamp disk_stamp(const std::string& path);

enum class DiskChange { Same, Changed, Gone };
// Whether the file at `path` still holds the bytes `known` recorded. `now`
// gets the file's current stamp (hashed only when the metadata moved, or
// always with `read_bytes`: before a save writes over the file, the bytes
// decide, whatever the metadata says).
DiskChange compare_with_disk(const DiskStamp& known, const std::string& path, DiskStamp* now = nullptr,
                             bool read_bytes = false);

// load_scenario, and the stamp of the very bytes it parsed.
struct StampedScenario {
  attn::io::ScenarioFile file;
  DiskStamp stamp;
};
StampedScenario load_stamped_scenario(const std::string& path, const attn::Limits& limits);

}  // namespace model
