// The GGUF reader: the fixture's header and tensor table as npm's
// @huggingface/gguf reads them (tests/data/gguf/*.header.json), and every
// kind of damaged or lying file refused with a message naming the problem.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "gguf_bytes.hpp"

using namespace attn::hf;
using namespace attn::hf::test;

namespace {

std::shared_ptr<const GgufFile> gguf_view(const std::string& bytes) {
  return GgufFile::view(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), "test.gguf");
}

// The ModelError message for `bytes`, or "" when they open.
std::string gguf_refusal(const std::string& bytes) {
  try {
    gguf_view(bytes);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

std::string gguf_refusal(const GgufLayout& g) { return gguf_refusal(gguf_bytes(g)); }

bool says(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("gguf: every fixture's header, metadata and tensors are what npm's @huggingface/gguf reads") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(ATTN_HF_DATA_DIR) / ".." / "gguf";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".gguf") continue;
    CAPTURE(entry.path().filename().string());
    const auto f = GgufFile::open(entry.path());
    std::ifstream in(fs::path(entry.path()).replace_extension(".header.json"));
    REQUIRE(in);
    const nlohmann::json want = nlohmann::json::parse(in);
    ++files;
    CHECK(f->version() == want["version"].get<std::uint32_t>());
    CHECK(f->metadata().size() == want["kv_count"].get<std::size_t>());
    CHECK(f->data_offset() == want["tensor_data_offset"].get<std::uint64_t>());
    REQUIRE(f->tensors().size() == want["tensor_count"].get<std::size_t>());
    for (std::size_t i = 0; i < f->tensors().size(); ++i) {
      const GgufTensor& t = f->tensors()[i];
      const nlohmann::json& w = want["tensors"][i];
      CAPTURE(t.name);
      CHECK(t.name == w["name"].get<std::string>());
      CHECK(t.dims == w["shape"].get<std::vector<std::uint64_t>>());
      CHECK(t.type == w["type"].get<std::uint32_t>());
      CHECK(t.offset == w["offset"].get<std::uint64_t>());
    }
    for (const auto& [key, value] : want["metadata"].items()) {
      CAPTURE(key);
      const GgufValue* v = f->find(key);
      REQUIRE(v != nullptr);
      if (value.is_string()) CHECK(gguf_string(*f, key) == value.get<std::string>());
      else if (value.is_boolean()) CHECK(gguf_bool(*f, key) == value.get<bool>());
      else if (value.is_number()) CHECK(gguf_float(*f, key) == doctest::Approx(value.get<double>()).epsilon(1e-7));
      else if (value.is_object()) {  // an array: its length and first elements
        CHECK(v->count == value["length"].get<std::uint64_t>());
        const nlohmann::json& first = value["first"];
        if (v->element_type == GgufValue::Type::String) {
          const std::vector<std::string> got = gguf_strings(*f, key);
          for (std::size_t k = 0; k < first.size(); ++k) CHECK(got[k] == first[k].get<std::string>());
        } else {
          const std::vector<double> got = gguf_numbers(*f, key);
          for (std::size_t k = 0; k < first.size(); ++k) CHECK(got[k] == doctest::Approx(first[k].get<double>()));
        }
      }
    }
  }
  CHECK(files >= 9);
}

TEST_CASE("gguf: a small valid file lists its metadata and tensors, and typed reads name a wrong type") {
  const std::string bytes = gguf_bytes(small_gguf());
  const auto f = gguf_view(bytes);
  CHECK(f->version() == 3);
  CHECK(gguf_string(*f, "general.architecture") == "llama");
  CHECK_FALSE(gguf_uint(*f, "llama.block_count").has_value());
  REQUIRE(f->tensor("b") != nullptr);
  CHECK(f->tensor("b")->bytes == 32);
  float b0 = 0;
  std::memcpy(&b0, f->bytes(*f->tensor("b")), 4);
  CHECK(b0 == 4.0f);
  try {
    gguf_uint(*f, "general.architecture");
    FAIL("a string read as an integer");
  } catch (const ModelError& e) {
    CHECK(says(e.what(), "general.architecture"));
    CHECK(says(e.what(), "string"));
  }
}

TEST_CASE("gguf: not GGUF, version 1, a big-endian file and an unknown version are refused by name") {
  CHECK(says(gguf_refusal(std::string("GGML") + std::string(60, '\0')), "not a GGUF file"));
  CHECK(says(gguf_refusal(std::string("GG")), "not a GGUF file"));
  GgufLayout g = small_gguf();
  g.version = 1;
  CHECK(says(gguf_refusal(g), "version 1"));
  g.version = 3u << 24;
  CHECK(says(gguf_refusal(g), "big-endian"));
  g.version = 7;
  CHECK(says(gguf_refusal(g), "version 7"));
}

TEST_CASE("gguf: truncated files are refused where they end") {
  const std::string whole = gguf_bytes(small_gguf());
  // Cut inside the counts, the metadata, the tensor table and the data.
  for (std::size_t cut : {std::size_t{10}, std::size_t{30}, std::size_t{70}, whole.size() - 8}) {
    CAPTURE(cut);
    const std::string message = gguf_refusal(whole.substr(0, cut));
    CHECK_MESSAGE((says(message, "truncated") || says(message, "runs past the end") || says(message, "longer than")), message);
  }
}

TEST_CASE("gguf: counts that overflow or cannot fit the file are refused before anything is allocated") {
  GgufLayout g = small_gguf();
  g.tensor_count = std::numeric_limits<std::uint64_t>::max() - 1;  // (max itself means "the real count")
  const std::string tensors = gguf_refusal(g);
  CHECK_MESSAGE(says(tensors, "claims 18446744073709551614 tensors"), tensors);
  g = small_gguf();
  g.key_count = 1ull << 62;
  CHECK(says(gguf_refusal(g), "metadata entries"));
  // An array of 2^61 uint32 elements.
  g = small_gguf();
  std::string arr;
  put_u32(arr, 4);
  put_u64(arr, 1ull << 61);
  g.keys.push_back({"tokenizer.ggml.scores", 9, arr});
  CHECK(says(gguf_refusal(g), "claims 2305843009213693952 elements"));
  // Dimensions whose product overflows 64 bits.
  g = small_gguf();
  g.tensors[1].dims = {1ull << 40, 1ull << 40};
  CHECK(says(gguf_refusal(g), "larger than the whole file"));
}

TEST_CASE("gguf: a string longer than the file is refused, in a key and in a value") {
  GgufLayout g = small_gguf();
  std::string huge;
  put_u64(huge, 1ull << 40);
  g.keys.push_back({"general.name", 8, huge});
  CHECK(says(gguf_refusal(g), "string of 1099511627776 bytes"));
  // A key's own length.
  std::string bytes = "GGUF";
  put_u32(bytes, 3);
  put_u64(bytes, 0);
  put_u64(bytes, 1);
  put_u64(bytes, 999);
  bytes += "ab" + std::string(20, '\0');
  CHECK(says(gguf_refusal(bytes), "string of 999 bytes, longer than the"));
}

TEST_CASE("gguf: unknown value types and unknown ggml types are refused, naming the key or tensor") {
  GgufLayout g = small_gguf();
  g.keys.push_back({"general.odd", 13, std::string(8, '\0')});
  const std::string value = gguf_refusal(g);
  CHECK(says(value, "general.odd"));
  CHECK(says(value, "unknown value type 13"));
  g = small_gguf();
  g.tensors[1].type = 31;
  const std::string type = gguf_refusal(g);
  CHECK(says(type, "\"b\""));
  CHECK(says(type, "unknown ggml type 31"));
}

TEST_CASE("gguf: tensors that overlap, run past the end or are misaligned are refused") {
  GgufLayout g = small_gguf();
  g.tensors[1].offset = 0;  // both at 0
  CHECK(says(gguf_refusal(g), "overlap"));
  g = small_gguf();
  g.tensors[1].offset = 64;  // 32 bytes past the data's 64
  CHECK(says(gguf_refusal(g), "runs past the end"));
  g = small_gguf();
  g.tensors[1].offset = 40;  // not a multiple of 32
  CHECK(says(gguf_refusal(g), "not a multiple of the file's alignment 32"));
  // With an alignment of 1, an F32 tensor at an odd byte is misaligned for its type.
  g = small_gguf();
  std::string one;
  put_u32(one, 1);
  g.keys.push_back({"general.alignment", 4, one});
  g.tensors[1].offset = 33;
  g.data += std::string(8, '\0');
  const std::string misaligned = gguf_refusal(g);
  CHECK(says(misaligned, "misaligned for F32"));
}

TEST_CASE("gguf: a row that is not whole blocks, a bad alignment and repeated names are refused") {
  GgufLayout g = small_gguf();
  g.tensors[1].type = 12;  // Q4_K: rows of 256
  CHECK(says(gguf_refusal(g), "not a whole number of Q4_K blocks of 256"));
  g = small_gguf();
  std::string three;
  put_u32(three, 3);
  g.keys.push_back({"general.alignment", 4, three});
  CHECK(says(gguf_refusal(g), "not a power of two"));
  g = small_gguf();
  g.tensors[1].name = "a";
  CHECK(says(gguf_refusal(g), "appears twice"));
  g = small_gguf();
  g.keys.push_back(g.keys[0]);
  CHECK(says(gguf_refusal(g), "appears twice"));
}
