// One .safetensors file (safetensors.hpp), memory-mapped: the 8-byte header
// length, the JSON header and every tensor's offsets checked against the
// file's size before a byte of data is read.
#include "attn/hf/safetensors/safetensors.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "attn/hf/model_error.hpp"
#include "attn/platform/mapped_file.hpp"
#include "attn/io/excerpt.hpp"
#include "json/bounded_json.hpp"

namespace attn::hf {

namespace {

// Every safetensors dtype, so that a file holding types we cannot compute
// with still has its ranges checked; the message comes only if one is used.
std::size_t any_dtype_bytes(const std::string& name) {
  static const std::unordered_map<std::string, std::size_t> sizes = {
      {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
      {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4},     {"I64", 8},     {"U64", 8}, {"F64", 8}};
  auto it = sizes.find(name);
  return it == sizes.end() ? 0 : it->second;
}

[[noreturn]] void fail(const std::string& what, const std::string& why) { throw ModelError(what + ": " + why); }

std::uint64_t read_u64_le(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

}  // namespace

std::int64_t TensorInfo::elements() const {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

std::shared_ptr<const SafetensorsFile> SafetensorsFile::open(const std::filesystem::path& path) {
  const std::string what = path.filename().string();
  std::unique_ptr<platform::MappedFile> mapping;
  try {
    mapping = platform::MappedFile::open(path.string());
  } catch (const platform::MapError& e) {
    fail(path.string(), e.what());
  }
  const std::size_t size = mapping->size();
  if (size < 8) fail(what, "truncated: " + std::to_string(size) + " bytes, shorter than the 8-byte header length");
  std::shared_ptr<SafetensorsFile> f(new SafetensorsFile);
  f->what_ = what;
  f->base_ = mapping->data();
  f->size_ = size;
  f->mapping_ = std::move(mapping);
  f->parse_header();
  return f;
}

std::shared_ptr<const SafetensorsFile> SafetensorsFile::view(const unsigned char* bytes, std::size_t size,
                                                             std::string what) {
  std::shared_ptr<SafetensorsFile> f(new SafetensorsFile);
  f->what_ = std::move(what);
  f->base_ = bytes;
  f->size_ = size;
  if (size < 8) fail(f->what_, "truncated: " + std::to_string(size) + " bytes, shorter than the 8-byte header length");
  f->parse_header();
  return f;
}

SafetensorsFile::~SafetensorsFile() = default;

std::string SafetensorsFile::changed() const { return mapping_ ? mapping_->change_text(what_) : std::string(); }

void SafetensorsFile::parse_header() {
  const std::uint64_t header_len = read_u64_le(base_);
  if (header_len > kMaxSafetensorsHeaderBytes)
    fail(what_, "the header claims " + std::to_string(header_len) + " bytes, more than the " +
                    std::to_string(kMaxSafetensorsHeaderBytes >> 20) + " MB any checkpoint needs (damaged file?)");
  if (header_len > size_ - 8)
    fail(what_, "truncated: the header claims " + std::to_string(header_len) + " bytes but the file has " +
                    std::to_string(size_ - 8) + " after the length");
  data_ = base_ + 8 + header_len;
  data_size_ = size_ - 8 - static_cast<std::size_t>(header_len);

  const nlohmann::json header = detail::parse_bounded_json(
      std::string_view(reinterpret_cast<const char*>(base_ + 8), static_cast<std::size_t>(header_len)),
      what_ + ": the header", detail::kSmallFileBounds);
  if (!header.is_object()) fail(what_, "the header is not a JSON object");

  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string where = "tensor " + io::quoted_excerpt(name);
    if (!entry.is_object()) fail(what_, where + " is not an object");
    const auto dt = entry.find("dtype");
    const auto sh = entry.find("shape");
    const auto off = entry.find("data_offsets");
    if (dt == entry.end() || !dt->is_string()) fail(what_, where + " has no dtype string");
    if (sh == entry.end() || !sh->is_array()) fail(what_, where + " has no shape array");
    if (off == entry.end() || !off->is_array() || off->size() != 2 || !(*off)[0].is_number_unsigned() ||
        !(*off)[1].is_number_unsigned())
      fail(what_, where + " has no data_offsets [begin, end] of two non-negative integers");
    TensorInfo t;
    t.name = name;
    t.dtype_name = dt->get<std::string>();
    t.dtype = parse_dtype(t.dtype_name);
    const std::size_t elem = any_dtype_bytes(t.dtype_name);
    if (elem == 0) fail(what_, where + " has unknown dtype " + io::quoted_excerpt(t.dtype_name));
    const std::uint64_t b = (*off)[0].get<std::uint64_t>(), e = (*off)[1].get<std::uint64_t>();
    if (b > e) fail(what_, where + " has data_offsets that end before they begin");
    if (e > data_size_)
      fail(what_, where + " runs past the end of the file (ends at byte " + std::to_string(e) + " of a " +
                      std::to_string(data_size_) + "-byte data section: truncated?)");
    // The element count, refusing any product that overflows what the data could hold.
    std::uint64_t count = 1;
    for (const auto& d : *sh) {
      if (!d.is_number_unsigned()) fail(what_, where + " has a shape entry that is not a non-negative integer");
      const std::uint64_t v = d.get<std::uint64_t>();
      if (v != 0 && count > data_size_ / v) fail(what_, where + " has a shape larger than the whole file");
      count *= v;
      t.shape.push_back(static_cast<std::int64_t>(v));
    }
    if (count > data_size_ / elem || (e - b) != count * elem)
      fail(what_, where + " holds " + std::to_string(e - b) + " bytes, but its shape and dtype " + t.dtype_name +
                      " need " + std::to_string(count) + " x " + std::to_string(elem));
    t.begin = static_cast<std::size_t>(b);
    t.end = static_cast<std::size_t>(e);
    tensors_.push_back(std::move(t));
  }

  // The ranges must tile the data section: sorted by start, each begins where
  // the previous ended, the last ends at the file's end.
  std::vector<std::size_t> order(tensors_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return tensors_[a].begin != tensors_[b].begin ? tensors_[a].begin < tensors_[b].begin
                                                  : tensors_[a].end < tensors_[b].end;
  });
  std::size_t at = 0;
  const TensorInfo* previous = nullptr;
  for (std::size_t i : order) {
    const TensorInfo& t = tensors_[i];
    if (t.begin < at)
      fail(what_, "tensors " + io::quoted_excerpt(previous->name) + " and " + io::quoted_excerpt(t.name) + " overlap (bytes " +
                      std::to_string(t.begin) + " to " + std::to_string(at) + ")");
    if (t.begin > at)
      fail(what_, "a gap of " + std::to_string(t.begin - at) + " bytes before tensor " + io::quoted_excerpt(t.name) +
                      " that no tensor covers");
    at = t.end;
    previous = &t;
  }
  if (at != data_size_)
    fail(what_, std::to_string(data_size_ - at) + " bytes after the last tensor that no tensor covers");
  for (std::size_t i = 0; i < tensors_.size(); ++i) by_name_.emplace(tensors_[i].name, i);
}

void SafetensorsFile::release(const TensorInfo& info) const {
  if (mapping_) mapping_->release(data_ + info.begin, data_ + info.end);
}

const TensorInfo* SafetensorsFile::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &tensors_[it->second];
}

}  // namespace attn::hf
