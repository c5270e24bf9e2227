// File reading and atomic writing (see file_io.hpp). The temporary file sits
// next to the target because rename() is only atomic within one file system.
#include "file_io.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"

namespace attn::io::detail {

namespace fs = std::filesystem;

namespace {

std::string os_reason(int err) { return err != 0 ? std::strerror(err) : "unknown error"; }

// Unique enough for concurrent saves from one process and from several:
// process-wide counter plus the clock.
std::string temp_name_for(const fs::path& target) {
  static std::atomic<unsigned> counter{0};
  const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
  return target.filename().string() + ".tmp-" + std::to_string(ticks) + "-" +
         std::to_string(counter.fetch_add(1));
}

}  // namespace

std::string read_text_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    throw FormatError("cannot open: " + (ec ? ec.message() : os_reason(ENOENT)));
  }
  if (fs::is_directory(status)) throw FormatError("is a directory, not a scenario file");
  if (fs::is_regular_file(status)) {
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > kMaxFileBytes) {
      throw FormatError("file is too large (" + std::to_string(size) +
                        " bytes; scenario files are limited to 1 GiB)");
    }
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError("cannot open: " + os_reason(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw FormatError("cannot read: " + os_reason(errno));
  std::string text = buffer.str();
  if (text.size() > kMaxFileBytes) throw FormatError("file is too large (more than 1 GiB)");
  return text;
}

void write_text_file_atomically(const std::string& path, const std::string& text) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const fs::path temp = dir / temp_name_for(target);
  {
    errno = 0;
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw FormatError("cannot write " + path + ": " + os_reason(errno));
    out << text;
    out.flush();
    if (!out) {
      const int err = errno;
      out.close();
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw FormatError("cannot write " + path + ": " + os_reason(err));
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw FormatError("cannot write " + path + ": " + ec.message());
  }
}

}  // namespace attn::io::detail

namespace attn::io {

std::string read_text(const std::string& path) { return detail::read_text_file(path); }
void write_text_atomically(const std::string& path, const std::string& text) { detail::write_text_file_atomically(path, text); }

}  // namespace attn::io
