// POSIX file mappings (attn/platform/mapped_file.hpp): mmap with
// MAP_PRIVATE, madvise to drop pages, and the SIGBUS guard
// (mapping_guard.hpp) over every mapping.
#include "attn/platform/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "posix/mapping_guard.hpp"
#include "posix/whole_pages.hpp"

namespace attn::platform {

namespace {

constexpr const char* kNotRegular = "not a regular file (a pipe, device or folder cannot hold weights)";

long long mtime_ns(const struct stat& st) {
  return static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000LL + st.st_mtim.tv_nsec;
}

}  // namespace

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path) {
  // O_NONBLOCK: a FIFO put in a file's place would block a plain open
  // until some writer came, forever; it is refused as not a regular file.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) throw MapError(kNotRegular);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw MapError(std::string("cannot open: ") + std::strerror(errno));
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw MapError(kNotRegular);
  }
  std::unique_ptr<MappedFile> f(new MappedFile);
  f->fd_ = fd;
  f->mtime_ns_ = mtime_ns(st);
  f->size_ = static_cast<std::size_t>(st.st_size);
  if (f->size_ == 0) return f;  // mmap refuses an empty range
  void* map = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) throw MapError(std::string("cannot map: ") + std::strerror(errno));
  f->data_ = static_cast<const unsigned char*>(map);
  f->guard_slot_ = detail::guard_mapping(map, f->size_);
  return f;
}

MappedFile::~MappedFile() {
  if (data_) {
    detail::unguard_mapping(guard_slot_);
    ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  if (fd_ >= 0) ::close(fd_);
}

void MappedFile::release(const unsigned char* from, const unsigned char* to) const {
  if (!data_ || to <= from) return;
  // Only whole pages inside the range: its neighbours' pages stay.
  std::uintptr_t first = 0, last = 0;
  detail::whole_pages(from, static_cast<std::size_t>(to - from), static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE)),
                      first, last);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

MappedFile::Change MappedFile::changed() const {
  Change c;
  if (detail::mapping_damaged(guard_slot_)) {
    c.kind = Change::Kind::CutShort;
    return c;
  }
  struct stat st {};
  if (fd_ < 0 || ::fstat(fd_, &st) != 0) return c;
  if (static_cast<std::size_t>(st.st_size) != size_) {
    c.kind = Change::Kind::Resized;
    c.size_now = static_cast<std::size_t>(st.st_size);
  } else if (mtime_ns(st) != mtime_ns_) {
    c.kind = Change::Kind::Rewritten;
  }
  return c;
}

std::string MappedFile::change_text(const std::string& what) const {
  const Change c = changed();
  switch (c.kind) {
    case Change::Kind::CutShort:
      return what + " was cut short on disk while it was open";
    case Change::Kind::Resized:
      return what + " changed size on disk while it was open (" + std::to_string(size_) + " bytes, now " +
             std::to_string(c.size_now) + ")";
    case Change::Kind::Rewritten:
      return what + " was rewritten on disk while it was open";
    case Change::Kind::None:
      break;
  }
  return {};
}

}  // namespace attn::platform
