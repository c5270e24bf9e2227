// The guards in front of the JSON parser: empty files, truncation, binary
// junk, invalid UTF-8, hostile nesting and duplicate keys. Each must give one
// readable FormatError and never crash or hang.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "scenario_samples.hpp"

using attn::io::test::parse_error_of;
using attn::io::test::self_attention_sample;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("empty and blank files") {
  CHECK(parse_error_of(std::string()) == "file is empty; expected a JSON scenario object");
  CHECK(parse_error_of(std::string(" \n\t\r\n")) == "file is empty; expected a JSON scenario object");
}

TEST_CASE("a truncated file names the byte where it ends") {
  const std::string full = self_attention_sample().dump(2);
  for (std::size_t cut : {std::size_t{1}, full.size() / 3, full.size() / 2, full.size() - 1}) {
    CAPTURE(cut);
    const std::string text = full.substr(0, cut);
    const std::string msg = parse_error_of(text);
    CHECK(starts_with(msg, "file ends unexpectedly at byte " + std::to_string(text.size())));
    CHECK(msg.find("truncated") != std::string::npos);
  }
}

TEST_CASE("binary junk and invalid UTF-8") {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  CHECK(parse_error_of(png) ==
        "not UTF-8 text: invalid byte 0x89 at byte 0 (line 1, column 1); expected a JSON scenario");
  const std::string with_nul("{\"x\": \0}", 8);
  CHECK(starts_with(parse_error_of(with_nul), "not a text file: NUL byte at byte 6"));
  // A Latin-1 title (0xE9 = é) is not UTF-8: reported with its position.
  const std::string latin1 = "{\n\"title\": \"caf\xe9\"}";
  CHECK(parse_error_of(latin1) ==
        "not UTF-8 text: invalid byte 0xE9 at byte 15 (line 2, column 14); expected a JSON scenario");
  // Overlong encodings and surrogates are invalid UTF-8 too.
  CHECK(starts_with(parse_error_of(std::string("{\"t\":\"\xc0\xaf\"}")), "not UTF-8 text"));
  CHECK(starts_with(parse_error_of(std::string("{\"t\":\"\xed\xa0\x80\"}")), "not UTF-8 text"));
  // Valid multi-byte UTF-8 is fine.
  nlohmann::json doc = self_attention_sample();
  doc["title"] = "naïve ∑ attention 🙂";
  CHECK(attn::io::parse_scenario(doc.dump()).title == "naïve ∑ attention 🙂");
}

TEST_CASE("100000-deep nesting is rejected without building it") {
  const std::string deep_array(100000, '[');
  CHECK(starts_with(parse_error_of(deep_array), "nesting is deeper than 32 levels"));
  std::string deep_object;
  for (int i = 0; i < 100000; ++i) deep_object += "{\"a\":";
  CHECK(starts_with(parse_error_of(deep_object), "nesting is deeper than 32 levels"));
  // Deep but closed, inside the app data: still refused, and the path says where.
  nlohmann::json doc = self_attention_sample();
  std::string text = doc.dump();
  text.insert(text.size() - 1, ",\"attnviz\":" + std::string(40, '[') + std::string(40, ']'));
  CHECK(starts_with(parse_error_of(text), "nesting is deeper than 32 levels of arrays/objects (in attnviz[0]"));
}

TEST_CASE("nesting within the limit is accepted in app data") {
  nlohmann::json doc = self_attention_sample();
  std::string text = doc.dump();
  text.insert(text.size() - 1, ",\"attnviz\":{\"deep\":" + std::string(20, '[') + std::string(20, ']') + "}");
  CHECK(attn::io::parse_scenario(text).app["deep"].is_array());
}

TEST_CASE("syntax errors give line, column and field") {
  const std::string text = "{\n  \"format\": \"attnviz-scenario\",\n  \"x\": [[1, 2],, [3, 4]]\n}";
  CHECK(parse_error_of(text) ==
        "invalid JSON at line 3, column 16 (in x[1]): unexpected ','; expected '[', '{', or a literal");
  CHECK(parse_error_of(std::string("{\"a\": 1} 5")) ==
        "invalid JSON at line 1, column 10: unexpected number literal; expected end of input");
  CHECK(parse_error_of(std::string("{'x': 1}")) ==
        "invalid JSON at line 1, column 2: invalid literal; last read: '{''; expected string literal"
        " (JSON strings use double quotes)");
}

TEST_CASE("duplicate keys are an error, not a silent overwrite") {
  const std::string text =
      R"({"format":"attnviz-scenario","version":1,"x":[[1]],"heads":[{"w_q":[[1]],"w_q":[[2]],"w_k":[[1]],"w_v":[[1]]}]})";
  CHECK(parse_error_of(text) == "heads[0].w_q: duplicate key (it appears more than once in the same object)");
}

TEST_CASE("a UTF-8 byte order mark is accepted") {
  const std::string text = "\xEF\xBB\xBF" + self_attention_sample().dump();
  CHECK(parse_error_of(text) == "<no error>");
}

TEST_CASE("load_scenario prefixes the path, also for missing files") {
  const std::string missing = std::string(ATTN_IO_TEST_TMP) + "/does-not-exist.json";
  try {
    (void)attn::io::load_scenario(missing);
    FAIL("expected a FormatError");
  } catch (const attn::io::FormatError& e) {
    CHECK(std::string(e.what()) == missing + ": cannot open: No such file or directory");
  }
}

TEST_CASE("a symlink loop is named as one, and why_unreadable says what loading would") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(ATTN_IO_TEST_TMP) / "symlink-loop";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink("b.json", dir / "a.json");
  fs::create_symlink("a.json", dir / "b.json");
  const std::string loop = (dir / "a.json").string();
  const std::string named = loop + ": cannot open: a symlink loop";
  CHECK_THROWS_WITH_AS((void)attn::io::load_scenario(loop), doctest::Contains(named.c_str()), attn::io::FormatError);
  CHECK(attn::io::why_unreadable(loop).rfind("cannot open: a symlink loop", 0) == 0);
  CHECK(attn::io::why_unreadable((dir / "missing.json").string()) == "cannot open: No such file or directory");
  CHECK(attn::io::why_unreadable(dir.string()) == "is a directory, not a JSON file");
  std::ofstream(dir / "ok.json") << "{}";
  CHECK(attn::io::why_unreadable((dir / "ok.json").string()).empty());
}
