// Scratch-file arrays (array_store.hpp).
#include "arrays/array_store.hpp"

#include <unistd.h>

#include <cstring>

#include "cli_error.hpp"

namespace attn::cli {

namespace fs = std::filesystem;

std::size_t element_bytes(ElementType t) { return t == ElementType::F32 ? 4 : 8; }

std::uint64_t StoredArray::elements() const {
  std::uint64_t n = 1;
  for (auto s : shape) n *= static_cast<std::uint64_t>(s);
  return n;
}

ArrayStore::ArrayStore(const fs::path& scratch_parent, std::string output) : output_(std::move(output)) {
  const fs::path parent = scratch_parent.empty() ? fs::path(".") : scratch_parent;
  std::string pattern = (parent / ".attn-arrays-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) fail("cannot make a scratch folder in " + parent.string());
  dir_ = pattern;
}

void ArrayStore::fail(const std::string& what) const {
  throw CliError("-o: cannot write " + output_ + ": " + what + " (" + std::strerror(errno) + "); the old file, if any, is unchanged");
}

ArrayStore::~ArrayStore() {
  for (std::FILE* f : files_)
    if (f) std::fclose(f);
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void ArrayStore::declare(const std::string& name, ElementType type, std::vector<std::int64_t> shape) {
  StoredArray a;
  a.name = name;
  a.type = type;
  a.shape = std::move(shape);
  a.scratch = dir_ / (std::to_string(arrays_.size()) + ".raw");
  std::FILE* f = std::fopen(a.scratch.c_str(), "wb");
  if (!f) fail("cannot write scratch data in " + dir_.string());
  arrays_.push_back(std::move(a));
  files_.push_back(f);
}

StoredArray& ArrayStore::find(const std::string& name) {
  for (StoredArray& a : arrays_)
    if (a.name == name) return a;
  throw CliError("internal: no array \"" + name + "\" declared", kExitInternal);
}

void ArrayStore::write_bytes(StoredArray& a, const void* bytes, std::size_t n) {
  std::FILE* f = files_[static_cast<std::size_t>(&a - arrays_.data())];
  if (std::fwrite(bytes, 1, n, f) != n) fail("writing its data to the scratch folder failed");
}

void ArrayStore::append(const std::string& name, const double* values, std::size_t count) {
  StoredArray& a = find(name);
  if (a.written + count > a.elements()) throw CliError("internal: array \"" + name + "\" overfilled", kExitInternal);
  if (a.type == ElementType::F64) {
    write_bytes(a, values, count * sizeof(double));
  } else {
    std::vector<float> f(values, values + count);
    write_bytes(a, f.data(), count * sizeof(float));
  }
  a.written += count;
}

void ArrayStore::append_ints(const std::string& name, const std::vector<std::int64_t>& values) {
  StoredArray& a = find(name);
  if (a.written + values.size() > a.elements()) throw CliError("internal: array \"" + name + "\" overfilled", kExitInternal);
  write_bytes(a, values.data(), values.size() * sizeof(std::int64_t));
  a.written += values.size();
}

const std::vector<StoredArray>& ArrayStore::finish() {
  for (std::size_t i = 0; i < arrays_.size(); ++i) {
    if (arrays_[i].written != arrays_[i].elements())
      throw CliError("internal: array \"" + arrays_[i].name + "\" was not filled", kExitInternal);
    const bool ok = std::fflush(files_[i]) == 0 && std::fclose(files_[i]) == 0;
    files_[i] = nullptr;
    if (!ok) fail("writing its data to the scratch folder failed");
  }
  return arrays_;
}

}  // namespace attn::cli
