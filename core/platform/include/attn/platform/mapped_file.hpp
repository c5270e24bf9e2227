// A whole file mapped read-only into memory: the weights of a checkpoint
// are read where they lie on disk, and only the pages touched are loaded.
// A file that another program cuts short while it is mapped would make a
// read past its new end kill the app (SIGBUS); the mapping is guarded, the
// missing pages read as zeros, and changed() reports it.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

namespace attn::platform {

// A file that could not be mapped, with the reason ("not a regular file
// (...)", "cannot open: ...", "cannot map: ...").
struct MapError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class MappedFile {
 public:
  // Maps the regular file at `path`. An empty file maps to no bytes.
  // Throws MapError; a pipe or device is refused without blocking.
  static std::unique_ptr<MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

  // Lets the system drop the whole pages inside [from, to) from this
  // process's memory; they are read from the file again if touched.
  void release(const unsigned char* from, const unsigned char* to) const;

  // What happened to the file on disk since it was mapped.
  struct Change {
    enum class Kind { None, CutShort, Resized, Rewritten } kind = Kind::None;
    std::size_t size_now = 0;  // Resized: the size on disk now
  };
  Change changed() const;
  // The same in words for the file called `what`, or "" when unchanged:
  // "model.gguf was cut short on disk while it was open".
  std::string change_text(const std::string& what) const;

 private:
  MappedFile() = default;
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;  // kept open to see whether the file changes under the mapping
  long long mtime_ns_ = 0;
  int guard_slot_ = -1;
};

}  // namespace attn::platform
