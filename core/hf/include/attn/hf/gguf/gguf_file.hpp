#pragma once
// A GGUF file (llama.cpp's format, versions 2 and 3), memory-mapped: the
// magic "GGUF", a version, the counts of tensors and of metadata entries,
// the metadata (typed keys: numbers, strings, arrays), the tensor table
// (name, dimensions, ggml type, offset), then the tensor data, aligned.
// Every count, length and offset is checked against the file before it is
// followed: a lying header is refused at open with a message naming what
// is wrong, never read past.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attn/hf/gguf/ggml_type.hpp"

namespace attn::platform {
class MappedFile;
}

namespace attn::hf {

// A metadata value. Numbers keep their sign: unsigned ones in `u`, signed
// in `i`, floats in `f`. An array keeps only its element type, its count
// and where its first element is in the file: its elements are read when
// asked for (gguf_strings, gguf_numbers), so that a hostile count costs
// nothing until used, and a real vocabulary is read once.
struct GgufValue {
  enum class Type : std::uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, Bool = 7, String = 8, Array = 9, U64 = 10, I64 = 11,
    F64 = 12
  };
  Type type = Type::U8;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  Type element_type = Type::U8;  // Array
  std::uint64_t count = 0;       // Array
  std::size_t at = 0;            // Array: its first element's byte in the file
};

std::string_view gguf_value_type_name(GgufValue::Type t);

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> dims;  // ggml's order: dims[0] is the row (contiguous) length
  std::uint32_t type = 0;           // a ggml type number (ggml_type.hpp)
  std::uint64_t offset = 0;         // in the data section
  std::uint64_t bytes = 0;          // its size in the file
  std::uint64_t elements() const;
};

class GgufFile {
 public:
  // Maps `path` read-only and reads its header and tensor table. Throws
  // ModelError naming the file and what is wrong: not GGUF, a version other
  // than 2 or 3, a count that overflows or cannot fit, a string or array
  // longer than the file, an unknown value type, an unknown ggml type, a
  // tensor whose row is not a whole number of blocks, misaligned for its
  // type, overlapping another or running past the end.
  static std::shared_ptr<const GgufFile> open(const std::filesystem::path& path);
  // The same checks on bytes already in memory (tests, fuzzing); `bytes`
  // must outlive the result.
  static std::shared_ptr<const GgufFile> view(const unsigned char* bytes, std::size_t size, std::string what);
  ~GgufFile();
  GgufFile(const GgufFile&) = delete;
  GgufFile& operator=(const GgufFile&) = delete;

  std::uint32_t version() const { return version_; }
  std::uint64_t alignment() const { return alignment_; }
  std::uint64_t data_offset() const { return data_offset_; }  // where the data section starts in the file
  const std::map<std::string, GgufValue, std::less<>>& metadata() const { return metadata_; }
  const unsigned char* base() const { return base_; }  // the whole file (arrays' elements)
  const GgufValue* find(std::string_view key) const;
  const std::vector<GgufTensor>& tensors() const { return tensors_; }
  const GgufTensor* tensor(std::string_view name) const;
  const unsigned char* bytes(const GgufTensor& t) const { return data_ + t.offset; }
  const unsigned char* data() const { return data_; }  // the data section
  std::size_t file_bytes() const { return size_; }
  const std::string& what() const { return what_; }
  // Lets the kernel drop the pages of bytes [begin, end) of the data
  // section (see SafetensorsFile::release).
  void release(std::size_t begin, std::size_t end) const;
  // Why the file on disk is no longer what is mapped, or "".
  std::string changed() const;

 private:
  GgufFile() = default;
  void parse();
  std::string what_;
  const unsigned char* base_ = nullptr;
  std::size_t size_ = 0;
  std::unique_ptr<platform::MappedFile> mapping_;
  std::uint32_t version_ = 0;
  std::uint64_t alignment_ = 32;
  std::uint64_t data_offset_ = 0;
  const unsigned char* data_ = nullptr;
  std::map<std::string, GgufValue, std::less<>> metadata_;
  std::vector<GgufTensor> tensors_;
  std::map<std::string, std::size_t, std::less<>> by_name_;
};

// Typed reads of metadata: nullopt when absent; ModelError naming the key
// when present with another type (any integer type is read as an integer,
// any number as a float).
std::optional<std::uint64_t> gguf_uint(const GgufFile& f, std::string_view key);
std::optional<double> gguf_float(const GgufFile& f, std::string_view key);
std::optional<std::string> gguf_string(const GgufFile& f, std::string_view key);
std::optional<bool> gguf_bool(const GgufFile& f, std::string_view key);
// An array's elements; empty when absent; ModelError when not an array of
// strings (of numbers).
std::vector<std::string> gguf_strings(const GgufFile& f, std::string_view key);
std::vector<double> gguf_numbers(const GgufFile& f, std::string_view key);

}  // namespace attn::hf
