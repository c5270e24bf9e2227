// One GGUF file (gguf_file.hpp), memory-mapped. A cursor reads the header
// field by field, each read checked against the bytes left; every count is
// checked against what the rest of the file could hold before anything is
// allocated for it, so a lying count is refused, never trusted.
#include "attn/hf/gguf/gguf_file.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "attn/hf/model_error.hpp"
#include "attn/io/excerpt.hpp"
#include "attn/platform/mapped_file.hpp"

namespace attn::hf {
namespace {

using Type = GgufValue::Type;

[[noreturn]] void gguf_fail(const std::string& what, const std::string& why) { throw ModelError(what + ": " + why); }

// The least bytes one element of `t` takes in the file (a string: its 8-byte
// length; an array: its type and count).
std::size_t least_bytes(Type t) {
  switch (t) {
    case Type::U8: case Type::I8: case Type::Bool: return 1;
    case Type::U16: case Type::I16: return 2;
    case Type::U32: case Type::I32: case Type::F32: return 4;
    case Type::U64: case Type::I64: case Type::F64: case Type::String: return 8;
    case Type::Array: return 12;
  }
  return 1;
}

bool known_type(std::uint32_t t) { return t <= static_cast<std::uint32_t>(Type::F64); }

// Reads little-endian fields from [p, end), each checked; `what` names the
// file and `where` the field being read, for the message.
struct Cursor {
  const unsigned char* base;
  std::size_t pos, size;
  const std::string& what;

  std::size_t left() const { return size - pos; }
  void need(std::size_t n, const std::string& where) const {
    if (n > left())
      gguf_fail(what, "truncated in " + where + ": it needs " + std::to_string(n) + " bytes at byte " + std::to_string(pos) +
                     ", the file has " + std::to_string(left()) + " left");
  }
  template <class T>
  T read(const std::string& where) {
    need(sizeof(T), where);
    T v;
    std::memcpy(&v, base + pos, sizeof(T));
    pos += sizeof(T);
    return v;
  }
  std::string string(const std::string& where) {
    const std::uint64_t n = read<std::uint64_t>(where);
    if (n > left())
      gguf_fail(what, where + " claims a string of " + std::to_string(n) + " bytes, longer than the " + std::to_string(left()) +
                     " bytes left in the file");
    std::string s(reinterpret_cast<const char*>(base + pos), static_cast<std::size_t>(n));
    pos += static_cast<std::size_t>(n);
    return s;
  }
};

// Reads one value of type `t` (an array's elements only skipped over and
// checked, to `depth` arrays deep).
GgufValue read_value(Cursor& c, Type t, const std::string& where, int depth) {
  GgufValue v;
  v.type = t;
  switch (t) {
    case Type::U8: v.u = c.read<std::uint8_t>(where); break;
    case Type::I8: v.i = c.read<std::int8_t>(where); break;
    case Type::U16: v.u = c.read<std::uint16_t>(where); break;
    case Type::I16: v.i = c.read<std::int16_t>(where); break;
    case Type::U32: v.u = c.read<std::uint32_t>(where); break;
    case Type::I32: v.i = c.read<std::int32_t>(where); break;
    case Type::U64: v.u = c.read<std::uint64_t>(where); break;
    case Type::I64: v.i = c.read<std::int64_t>(where); break;
    case Type::F32: v.f = c.read<float>(where); break;
    case Type::F64: v.f = c.read<double>(where); break;
    case Type::Bool: {
      const std::uint8_t b = c.read<std::uint8_t>(where);
      if (b > 1) gguf_fail(c.what, where + " is a boolean of value " + std::to_string(b) + ", not 0 or 1");
      v.b = b != 0;
      break;
    }
    case Type::String: v.s = c.string(where); break;
    case Type::Array: {
      if (depth >= 2) gguf_fail(c.what, where + " nests arrays more than two deep");
      const std::uint32_t et = c.read<std::uint32_t>(where);
      if (!known_type(et)) gguf_fail(c.what, where + " is an array of unknown value type " + std::to_string(et));
      v.element_type = static_cast<Type>(et);
      v.count = c.read<std::uint64_t>(where);
      if (v.count > c.left() / least_bytes(v.element_type))
        gguf_fail(c.what, where + " claims " + std::to_string(v.count) + " elements of " +
                         std::string(gguf_value_type_name(v.element_type)) + ", more than the " +
                         std::to_string(c.left()) + " bytes left in the file could hold");
      v.at = c.pos;
      if (v.element_type == Type::String || v.element_type == Type::Array) {
        for (std::uint64_t k = 0; k < v.count; ++k)
          read_value(c, v.element_type, where + " element " + std::to_string(k), depth + 1);
      } else {
        c.pos += static_cast<std::size_t>(v.count) * least_bytes(v.element_type);
      }
      break;
    }
  }
  return v;
}

// Where a tensor of type `t` must start: its fields' own alignment (a
// float's 4 bytes; a half's 2 in every block that starts with one).
std::size_t natural_alignment(std::uint32_t type, const GgmlTypeTraits& traits) {
  if (type == static_cast<std::uint32_t>(GgmlType::F32)) return 4;
  return traits.block_bytes % 2 == 0 ? 2 : 1;
}

}  // namespace

std::string_view gguf_value_type_name(GgufValue::Type t) {
  switch (t) {
    case Type::U8: return "uint8";
    case Type::I8: return "int8";
    case Type::U16: return "uint16";
    case Type::I16: return "int16";
    case Type::U32: return "uint32";
    case Type::I32: return "int32";
    case Type::F32: return "float32";
    case Type::Bool: return "bool";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::U64: return "uint64";
    case Type::I64: return "int64";
    case Type::F64: return "float64";
  }
  return "?";
}

std::uint64_t GgufTensor::elements() const {
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) n *= d;
  return n;
}

std::shared_ptr<const GgufFile> GgufFile::open(const std::filesystem::path& path) {
  std::unique_ptr<platform::MappedFile> mapping;
  try {
    mapping = platform::MappedFile::open(path.string());
  } catch (const platform::MapError& e) {
    gguf_fail(path.string(), e.what());
  }
  std::shared_ptr<GgufFile> f(new GgufFile);
  f->what_ = path.filename().string();
  f->base_ = mapping->data();
  f->size_ = mapping->size();
  f->mapping_ = std::move(mapping);
  f->parse();
  return f;
}

std::shared_ptr<const GgufFile> GgufFile::view(const unsigned char* bytes, std::size_t size, std::string what) {
  std::shared_ptr<GgufFile> f(new GgufFile);
  f->what_ = std::move(what);
  f->base_ = bytes;
  f->size_ = size;
  f->parse();
  return f;
}

GgufFile::~GgufFile() = default;

void GgufFile::parse() {
  Cursor c{base_, 0, size_, what_};
  if (size_ < 4 || std::memcmp(base_, "GGUF", 4) != 0) gguf_fail(what_, "not a GGUF file (it does not start with \"GGUF\")");
  c.pos = 4;
  version_ = c.read<std::uint32_t>("the version");
  if (version_ == 1) gguf_fail(what_, "GGUF version 1, an early form no longer written; convert the model again with llama.cpp");
  if (version_ != 2 && version_ != 3) {
    std::uint32_t swapped = 0;
    for (int k = 0; k < 4; ++k) swapped = swapped << 8 | ((version_ >> (8 * k)) & 0xFF);
    gguf_fail(what_, "GGUF version " + std::to_string(version_) +
                    (swapped == 2 || swapped == 3 ? " (a big-endian file, which attnviz does not read)" : ", not 2 or 3"));
  }
  const std::uint64_t n_tensors = c.read<std::uint64_t>("the tensor count");
  const std::uint64_t n_keys = c.read<std::uint64_t>("the metadata count");
  // A metadata entry takes at least a key length, a type and a byte; a
  // tensor entry a name length, a dimension count, one dimension, a type and an offset.
  if (n_keys > c.left() / 13)
    gguf_fail(what_, "the header claims " + std::to_string(n_keys) + " metadata entries, more than its " + std::to_string(c.left()) +
                    " remaining bytes could hold: the file is truncated or damaged");
  if (n_tensors > c.left() / 32)
    gguf_fail(what_, "the header claims " + std::to_string(n_tensors) + " tensors, more than its " + std::to_string(c.left()) +
                    " remaining bytes could hold: the file is truncated or damaged");

  for (std::uint64_t k = 0; k < n_keys; ++k) {
    const std::string key = c.string("metadata key " + std::to_string(k));
    const std::string where = "metadata " + io::quoted_excerpt(key);
    const std::uint32_t t = c.read<std::uint32_t>(where);
    if (!known_type(t)) gguf_fail(what_, where + " has unknown value type " + std::to_string(t));
    GgufValue v = read_value(c, static_cast<Type>(t), where, 0);
    if (!metadata_.emplace(key, std::move(v)).second) gguf_fail(what_, where + " appears twice");
  }
  if (const GgufValue* a = find("general.alignment")) {
    if (a->type != Type::U32 && a->type != Type::U64)
      gguf_fail(what_, "general.alignment is a " + std::string(gguf_value_type_name(a->type)) + ", not an unsigned integer");
    if (a->u == 0 || (a->u & (a->u - 1)) != 0 || a->u > (1u << 20))
      gguf_fail(what_, "general.alignment is " + std::to_string(a->u) + ", not a power of two up to 1 MiB");
    alignment_ = a->u;
  }

  for (std::uint64_t k = 0; k < n_tensors; ++k) {
    GgufTensor t;
    t.name = c.string("tensor " + std::to_string(k) + "'s name");
    const std::string where = "tensor " + io::quoted_excerpt(t.name);
    const std::uint32_t n_dims = c.read<std::uint32_t>(where);
    if (n_dims == 0 || n_dims > 4) gguf_fail(what_, where + " has " + std::to_string(n_dims) + " dimensions, not 1 to 4");
    for (std::uint32_t d = 0; d < n_dims; ++d) t.dims.push_back(c.read<std::uint64_t>(where));
    t.type = c.read<std::uint32_t>(where);
    t.offset = c.read<std::uint64_t>(where);
    const GgmlTypeTraits* traits = ggml_type_traits(t.type);
    if (!traits) gguf_fail(what_, where + " has unknown ggml type " + std::to_string(t.type));
    if (t.dims[0] % traits->block_elements != 0)
      gguf_fail(what_, where + " has rows of " + std::to_string(t.dims[0]) + " weights, not a whole number of " +
                      std::string(traits->name) + " blocks of " + std::to_string(traits->block_elements));
    // Its size, refusing any product that overflows what the file could hold.
    std::uint64_t rows = 1;
    for (std::uint32_t d = 1; d < n_dims; ++d) {
      if (t.dims[d] != 0 && rows > size_ / t.dims[d]) gguf_fail(what_, where + " has dimensions larger than the whole file");
      rows *= t.dims[d];
    }
    const std::uint64_t row_bytes = t.dims[0] / traits->block_elements;
    if (row_bytes != 0 && (traits->block_bytes > size_ / row_bytes || rows > size_ / (row_bytes * traits->block_bytes)))
      gguf_fail(what_, where + " has dimensions larger than the whole file");
    t.bytes = rows * row_bytes * traits->block_bytes;
    if (t.offset % alignment_ != 0)
      gguf_fail(what_, where + " starts at offset " + std::to_string(t.offset) + ", not a multiple of the file's alignment " +
                      std::to_string(alignment_));
    if (by_name_.count(t.name)) gguf_fail(what_, where + " appears twice");
    by_name_.emplace(t.name, tensors_.size());
    tensors_.push_back(std::move(t));
  }

  // The data section starts at the next multiple of the alignment.
  const std::uint64_t padding = (alignment_ - c.pos % alignment_) % alignment_;
  if (padding > c.left() && !tensors_.empty()) gguf_fail(what_, "truncated before its tensor data");
  data_offset_ = std::min<std::uint64_t>(c.pos + padding, size_);
  data_ = base_ + data_offset_;
  const std::uint64_t data_size = size_ - data_offset_;

  // Every tensor inside the data, aligned for its type, none overlapping another.
  std::vector<const GgufTensor*> order;
  for (const GgufTensor& t : tensors_) {
    const std::string where = "tensor " + io::quoted_excerpt(t.name);
    if (t.offset > data_size || t.bytes > data_size - t.offset)
      gguf_fail(what_, where + " runs past the end of the file (bytes " + std::to_string(t.offset) + " to " +
                      std::to_string(t.offset + t.bytes) + " of a " + std::to_string(data_size) + "-byte data section: truncated?)");
    const std::size_t align = natural_alignment(t.type, *ggml_type_traits(t.type));
    if ((data_offset_ + t.offset) % align != 0)
      gguf_fail(what_, where + " is misaligned for " + ggml_type_name(t.type) + ": it starts at byte " +
                      std::to_string(data_offset_ + t.offset) + ", not a multiple of " + std::to_string(align));
    order.push_back(&t);
  }
  std::sort(order.begin(), order.end(), [](const GgufTensor* a, const GgufTensor* b) { return a->offset < b->offset; });
  for (std::size_t k = 1; k < order.size(); ++k)
    if (order[k]->offset < order[k - 1]->offset + order[k - 1]->bytes)
      gguf_fail(what_, "tensors " + io::quoted_excerpt(order[k - 1]->name) + " and " + io::quoted_excerpt(order[k]->name) +
                      " overlap (bytes " + std::to_string(order[k]->offset) + " to " +
                      std::to_string(order[k - 1]->offset + order[k - 1]->bytes) + " of the data)");
}

const GgufValue* GgufFile::find(std::string_view key) const {
  auto it = metadata_.find(key);
  return it == metadata_.end() ? nullptr : &it->second;
}

const GgufTensor* GgufFile::tensor(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &tensors_[it->second];
}

void GgufFile::release(std::size_t begin, std::size_t end) const {
  if (mapping_) mapping_->release(data_ + begin, data_ + end);
}

std::string GgufFile::changed() const { return mapping_ ? mapping_->change_text(what_) : std::string(); }

// Typed reads ----------------------------------------------------------------

namespace {

[[noreturn]] void wrong_type(const GgufFile& f, std::string_view key, const GgufValue& v, const char* wanted) {
  gguf_fail(f.what(), "metadata " + io::quoted_excerpt(std::string(key)) + " is " +
                     std::string(gguf_value_type_name(v.type)) + ", not " + wanted);
}

bool is_unsigned(Type t) { return t == Type::U8 || t == Type::U16 || t == Type::U32 || t == Type::U64; }
bool is_signed(Type t) { return t == Type::I8 || t == Type::I16 || t == Type::I32 || t == Type::I64; }

// Element `k` of a numeric array, read from the file.
double number_at(const GgufFile& f, const GgufValue& a, std::uint64_t k) {
  const unsigned char* p = f.base() + a.at + k * least_bytes(a.element_type);
  const auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  switch (a.element_type) {
    case Type::U8: return get(std::uint8_t{});
    case Type::I8: return get(std::int8_t{});
    case Type::U16: return get(std::uint16_t{});
    case Type::I16: return get(std::int16_t{});
    case Type::U32: return get(std::uint32_t{});
    case Type::I32: return get(std::int32_t{});
    case Type::U64: return get(std::uint64_t{});
    case Type::I64: return get(std::int64_t{});
    case Type::F32: return get(float{});
    case Type::F64: return get(double{});
    case Type::Bool: return get(std::uint8_t{});
    case Type::String: case Type::Array: break;
  }
  return 0;
}

}  // namespace

std::optional<std::uint64_t> gguf_uint(const GgufFile& f, std::string_view key) {
  const GgufValue* v = f.find(key);
  if (!v) return std::nullopt;
  if (is_unsigned(v->type)) return v->u;
  if (is_signed(v->type) && v->i >= 0) return static_cast<std::uint64_t>(v->i);
  wrong_type(f, key, *v, "a non-negative integer");
}

std::optional<double> gguf_float(const GgufFile& f, std::string_view key) {
  const GgufValue* v = f.find(key);
  if (!v) return std::nullopt;
  if (v->type == Type::F32 || v->type == Type::F64) return v->f;
  if (is_unsigned(v->type)) return static_cast<double>(v->u);
  if (is_signed(v->type)) return static_cast<double>(v->i);
  wrong_type(f, key, *v, "a number");
}

std::optional<std::string> gguf_string(const GgufFile& f, std::string_view key) {
  const GgufValue* v = f.find(key);
  if (!v) return std::nullopt;
  if (v->type != Type::String) wrong_type(f, key, *v, "a string");
  return v->s;
}

std::optional<bool> gguf_bool(const GgufFile& f, std::string_view key) {
  const GgufValue* v = f.find(key);
  if (!v) return std::nullopt;
  if (v->type != Type::Bool) wrong_type(f, key, *v, "a boolean");
  return v->b;
}

std::vector<std::string> gguf_strings(const GgufFile& f, std::string_view key) {
  const GgufValue* v = f.find(key);
  if (!v) return {};
  if (v->type != Type::Array || v->element_type != Type::String) wrong_type(f, key, *v, "an array of strings");
  // The array was checked element by element at open: each length fits.
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(v->count));
  std::size_t at = v->at;
  for (std::uint64_t k = 0; k < v->count; ++k) {
    std::uint64_t n = 0;
    std::memcpy(&n, f.base() + at, 8);
    out.emplace_back(reinterpret_cast<const char*>(f.base() + at + 8), static_cast<std::size_t>(n));
    at += 8 + static_cast<std::size_t>(n);
  }
  return out;
}

std::vector<double> gguf_numbers(const GgufFile& f, std::string_view key) {
  const GgufValue* v = f.find(key);
  if (!v) return {};
  if (v->type != Type::Array || v->element_type == Type::String || v->element_type == Type::Array)
    wrong_type(f, key, *v, "an array of numbers");
  std::vector<double> out(static_cast<std::size_t>(v->count));
  for (std::uint64_t k = 0; k < v->count; ++k) out[static_cast<std::size_t>(k)] = number_at(f, *v, k);
  return out;
}

}  // namespace attn::hf
