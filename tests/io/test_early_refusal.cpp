// A file that cannot be JSON is refused from its first bytes, not after
// being read whole: a 1000 MB file of NUL bytes used to be read into memory
// (1 GB) before the check refused it at byte 0. The bytes read are measured
// by the kernel's count for this process (rchar in /proc/self/io), which
// sums every read() it made, so the test needs no timing.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "attn/io/lesson_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "scenario_samples.hpp"
#include "temp_files.hpp"

namespace {

namespace fs = std::filesystem;

constexpr off_t kBig = off_t{600} << 20;  // 600 MB, below the 1 GiB limit on files

// Bytes this process has read so far, or nothing where the kernel does not say.
std::optional<long long> bytes_read() {
  std::ifstream io("/proc/self/io");
  std::string key;
  long long value = 0;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  return std::nullopt;
}

// A sparse file of kBig bytes: `head`, then NUL bytes (holes, no disk used).
fs::path sparse_file(const std::string& folder, const std::string& head) {
  const fs::path p = attn::io::test::fresh_dir(folder) / "big.json";
  std::ofstream(p, std::ios::binary) << head;
  REQUIRE(::truncate(p.c_str(), kBig) == 0);
  return p;
}

// The message of loading `p` with `load`, and how many bytes that read.
template <typename Load>
std::pair<std::string, std::optional<long long>> refusal(const fs::path& p, Load load) {
  const std::optional<long long> before = bytes_read();
  std::string message = "<no error>";
  try {
    load(p.string());
  } catch (const attn::io::FormatError& e) {
    message = e.what();
  }
  const std::optional<long long> after = bytes_read();
  if (!before || !after) return {message, std::nullopt};
  return {message, *after - *before};
}

// Sparse files take no disk, but 600 MB of apparent size is not left behind.
struct Removed {
  fs::path path;
  ~Removed() { fs::remove(path); }
};

void check_read_little(const std::optional<long long>& read) {
  if (!read) {
    MESSAGE("/proc/self/io is not available: how much was read is not checked");
    return;
  }
  CHECK(*read < (off_t{4} << 20));  // a chunk or two, not the 600 MB
}

}  // namespace

TEST_CASE("early refusal: a 600 MB file of NUL bytes is refused at byte 0 without being read") {
  const fs::path p = sparse_file("early-nul", "");
  const Removed cleanup{p};
  const auto [message, read] = refusal(p, [](const std::string& path) { (void)attn::io::load_scenario(path); });
  CHECK(message == p.string() + ": not a text file: NUL byte at byte 0 (line 1); expected a JSON scenario");
  check_read_little(read);
  // Lessons and every other file read the same way.
  const auto [lesson_message, lesson_read] = refusal(p, [](const std::string& path) { (void)attn::io::load_lesson(path); });
  CHECK(lesson_message.find("NUL byte at byte 0") != std::string::npos);
  check_read_little(lesson_read);
  const auto [text_message, text_read] = refusal(p, [](const std::string& path) { (void)attn::io::read_text(path); });
  CHECK(text_message.find("NUL byte at byte 0") != std::string::npos);
  check_read_little(text_read);
}

TEST_CASE("early refusal: a first character no JSON value starts with is refused at its byte") {
  // After spaces, with NUL bytes far behind it: 'h' decides.
  const fs::path p = sparse_file("early-letter", "  \n hello");
  const Removed cleanup{p};
  const auto [message, read] = refusal(p, [](const std::string& path) { (void)attn::io::load_scenario(path); });
  CHECK(message == p.string() + ": not JSON: byte 4 (line 2, column 2) is 'h', which no JSON value starts with; "
                                "expected a JSON scenario");
  check_read_little(read);
}

TEST_CASE("early refusal: NUL bytes after a JSON start are refused where they begin, not after the whole file") {
  const fs::path p = sparse_file("early-later-nul", "{\"format\": \"attnviz-scenario\", ");
  const Removed cleanup{p};
  const auto [message, read] = refusal(p, [](const std::string& path) { (void)attn::io::load_scenario(path); });
  CHECK(message == p.string() + ": not a text file: NUL byte at byte 31 (line 1); expected a JSON scenario");
  check_read_little(read);
}

TEST_CASE("early refusal: a byte-order mark and leading spaces still open, binary junk keeps its message") {
  const fs::path dir = attn::io::test::fresh_dir("early-ok");
  const std::string json = attn::io::test::self_attention_sample().dump();
  std::ofstream(dir / "bom.json", std::ios::binary) << "\xEF\xBB\xBF \n" << json;
  CHECK_NOTHROW((void)attn::io::load_scenario((dir / "bom.json").string()));
  std::ofstream(dir / "png.json", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  CHECK_THROWS_WITH_AS((void)attn::io::load_scenario((dir / "png.json").string()),
                       ((dir / "png.json").string() +
                        ": not UTF-8 text: invalid byte 0x89 at byte 0 (line 1, column 1); expected a JSON scenario")
                           .c_str(),
                       attn::io::FormatError);
  // The same text refused from a string and from a file says the same.
  CHECK(attn::io::test::parse_error_of(std::string("  \n hello")) ==
        "not JSON: byte 4 (line 2, column 2) is 'h', which no JSON value starts with; expected a JSON scenario");
}
