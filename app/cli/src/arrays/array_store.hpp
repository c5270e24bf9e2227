#pragma once
// Named arrays that `attn model attention` fills layer by layer while the
// forward pass runs, each spilled to its own scratch file so memory holds one
// layer at a time (GPT-2 at 1,001 tokens has 1.2 GB of float64 attention
// maps). Each array is declared with its shape first and then appended to in
// row-major order; the writers (array_formats.hpp) assemble the output file
// from the scratch files once the pass is done.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attn::cli {

enum class ElementType { F32, F64, I64 };
std::size_t element_bytes(ElementType t);

struct StoredArray {
  std::string name;
  ElementType type = ElementType::F64;
  std::vector<std::int64_t> shape;
  std::filesystem::path scratch;  // the raw little-endian elements, row-major
  std::uint64_t written = 0;      // elements so far
  std::uint64_t elements() const;
};

class ArrayStore {
 public:
  // Scratch files go in a fresh folder inside `scratch_parent` (the output's
  // folder, so they are on the disk the output goes to), removed with the store.
  // `output` names the file the arrays are for, in messages.
  ArrayStore(const std::filesystem::path& scratch_parent, std::string output);
  ~ArrayStore();
  ArrayStore(const ArrayStore&) = delete;
  ArrayStore& operator=(const ArrayStore&) = delete;

  void declare(const std::string& name, ElementType type, std::vector<std::int64_t> shape);
  // Appends `count` values, converted to the array's type. Throws CliError
  // when the disk refuses them or the array would overflow its shape.
  void append(const std::string& name, const double* values, std::size_t count);
  void append_ints(const std::string& name, const std::vector<std::int64_t>& values);
  // Every array must be full; flushes and closes the scratch files.
  const std::vector<StoredArray>& finish();
  const std::vector<StoredArray>& arrays() const { return arrays_; }
  // Metadata the formats carry beside the arrays (the tokens, the model).
  std::vector<std::pair<std::string, nlohmann::json>> metadata;
  std::vector<std::string> tokens;

 private:
  StoredArray& find(const std::string& name);
  void write_bytes(StoredArray& a, const void* bytes, std::size_t n);
  [[noreturn]] void fail(const std::string& what) const;
  std::filesystem::path dir_;
  std::string output_;
  std::vector<StoredArray> arrays_;
  std::vector<std::FILE*> files_;
};

}  // namespace attn::cli
