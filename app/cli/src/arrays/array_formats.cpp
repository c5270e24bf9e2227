// JSON, npz and safetensors from an ArrayStore (array_formats.hpp).
#include "arrays/array_formats.hpp"

#include <zip.h>

#include <charconv>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "interrupt_guard.hpp"
#include "output_file.hpp"
#include "cli_error.hpp"

namespace attn::cli {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Reads an array's scratch file back in blocks, as doubles.
template <class F>
void for_each_block(const StoredArray& a, F&& use) {
  std::ifstream in(a.scratch, std::ios::binary);
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<char> raw(kBlock * 8);
  std::vector<double> values(kBlock);
  for (std::uint64_t done = 0; done < a.elements();) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, a.elements() - done));
    in.read(raw.data(), static_cast<std::streamsize>(n * element_bytes(a.type)));
    if (!in) throw CliError("-o: scratch data could not be read back", kExitInternal);
    for (std::size_t i = 0; i < n; ++i) {
      if (a.type == ElementType::F32) {
        float f;
        std::memcpy(&f, raw.data() + 4 * i, 4);
        values[i] = f;
      } else if (a.type == ElementType::F64) {
        std::memcpy(&values[i], raw.data() + 8 * i, 8);
      } else {
        std::int64_t v;
        std::memcpy(&v, raw.data() + 8 * i, 8);
        values[i] = static_cast<double>(v);
      }
    }
    use(values.data(), n);
    done += n;
    InterruptGuard::check();
  }
}

void put(OutputFile& out, const void* bytes, std::size_t n) {
  out.stream().write(static_cast<const char*>(bytes), static_cast<std::streamsize>(n));
}

void put(OutputFile& out, const std::string& text) { put(out, text.data(), text.size()); }

void copy_scratch(const StoredArray& a, OutputFile& out) {
  std::ifstream in(a.scratch, std::ios::binary);
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    put(out, buf.data(), static_cast<std::size_t>(in.gcount()));
    InterruptGuard::check();
  }
}

// ---- JSON: nested lists streamed from the scratch files.

void write_json(ArrayStore& store, OutputFile& out) {
  put(out, std::string("{\"format\": \"attnviz-model-attention\", \"tokens\": ") + nlohmann::json(store.tokens).dump());
  for (const auto& [key, value] : store.metadata) put(out, ", " + nlohmann::json(key).dump() + ": " + value.dump());
  for (const StoredArray& a : store.arrays()) {
    put(out, ", " + nlohmann::json(a.name).dump() + ": ");
    // An odometer over the indices: a list opens before an element whose
    // inner indices are all 0 and closes after one whose inner indices are
    // all at their ends (a division per element and dimension cost 4x).
    const std::size_t dims = a.shape.size();
    std::vector<std::int64_t> pos(dims, 0);
    std::uint64_t index = 0;
    std::string text;
    char buf[32];
    if (a.elements() == 0) text += std::string(dims, '[') + std::string(dims, ']');
    for_each_block(a, [&](const double* v, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i, ++index) {
        if (index > 0) text += ',';
        for (std::size_t d = dims; d-- > 0 && pos[d] == 0;) text += '[';
        const auto r = a.type == ElementType::I64 ? std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v[i]))
                       : a.type == ElementType::F32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v[i]))
                                                    : std::to_chars(buf, buf + sizeof buf, v[i]);
        text.append(buf, r.ptr);
        for (std::size_t d = dims; d-- > 0;) {
          if (++pos[d] < a.shape[d]) break;
          pos[d] = 0;
          text += ']';
        }
        if (text.size() > (1 << 20)) {
          put(out, text);
          text.clear();
        }
      }
    });
    put(out, text);
  }
  put(out, "}\n");
}

// ---- safetensors: header, then each array's bytes in order.

const char* safetensors_dtype(ElementType t) {
  return t == ElementType::F32 ? "F32" : t == ElementType::F64 ? "F64" : "I64";
}

void write_safetensors(ArrayStore& store, OutputFile& out) {
  nlohmann::json header = nlohmann::json::object();
  std::uint64_t at = 0;
  for (const StoredArray& a : store.arrays()) {
    const std::uint64_t bytes = a.elements() * element_bytes(a.type);
    header[a.name] = {{"dtype", safetensors_dtype(a.type)}, {"shape", a.shape}, {"data_offsets", {at, at + bytes}}};
    at += bytes;
  }
  nlohmann::json meta = {{"format", "attnviz-model-attention"}, {"tokens", nlohmann::json(store.tokens).dump()}};
  // __metadata__ maps strings to strings: other values go as their JSON text.
  for (const auto& [key, value] : store.metadata) meta[key] = value.is_string() ? value.get<std::string>() : value.dump();
  header["__metadata__"] = meta;
  std::string text = header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.append((8 - text.size() % 8) % 8, ' ');
  unsigned char length[8];
  for (int b = 0; b < 8; ++b) length[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(text.size()) >> (8 * b));
  put(out, length, 8);
  put(out, text);
  for (const StoredArray& a : store.arrays()) copy_scratch(a, out);
}

// ---- npz: a zip of .npy files.

// The .npy header (format 1.0): magic, version, length, a Python dict
// literal padded with spaces to a multiple of 64 bytes, ending in '\n'.
std::string npy_header(const std::string& descr, const std::vector<std::int64_t>& shape) {
  std::string dims;
  for (std::int64_t s : shape) dims += std::to_string(s) + ", ";
  if (shape.size() > 1) dims.resize(dims.size() - 2);
  else if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY\x01";
  h += '\0';
  h += static_cast<char>(dict.size() & 0xFF);
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

const char* npy_descr(ElementType t) { return t == ElementType::F32 ? "<f4" : t == ElementType::F64 ? "<f8" : "<i8"; }

// UTF-8 to code points (an invalid byte becomes U+FFFD), for NumPy's '<U' strings.
std::u32string code_points(const std::string& s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    char32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      ok = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3F);
    }
    out += ok ? cp : U'\uFFFD';
    i += ok ? static_cast<std::size_t>(len) : 1;
  }
  return out;
}

void write_npz(ArrayStore& store, OutputFile& out) {
  if (out.temporary().empty()) throw CliError("-o: an .npz file must go to a regular file (it is a zip, written whole)");
  int error = 0;
  // Discarded (nothing written) if anything below throws.
  std::unique_ptr<zip_t, void (*)(zip_t*)> owned(zip_open(out.temporary().c_str(), ZIP_TRUNCATE, &error), zip_discard);
  zip_t* zip = owned.get();
  if (!zip) throw CliError("-o: the .npz file could not be started (libzip error " + std::to_string(error) + ")");
  std::vector<std::string> members;
  const auto add = [&](const std::string& name, const std::string& header, const StoredArray* data,
                       const std::string& inline_data) {
    // The member's bytes: its header, then the scratch data (or `inline_data`).
    const std::string member = data ? data->scratch.string() + ".npy" : std::string();
    zip_source_t* src = nullptr;
    if (data) {
      {
        std::ofstream f(member, std::ios::binary);
        f << header;
        std::ifstream in(data->scratch, std::ios::binary);
        std::vector<char> buf(1 << 20);
        while (in) {
          in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
          f.write(buf.data(), in.gcount());
        }
        f.close();
        if (!f) throw CliError("-o: cannot write " + name + " into the scratch folder (disk full?)");
      }
      src = zip_source_file(zip, member.c_str(), 0, -1);
    } else {
      members.push_back(header + inline_data);
      src = zip_source_buffer(zip, members.back().data(), members.back().size(), 0);
    }
    if (!src) throw CliError("-o: the .npz file could not take " + name);
    const zip_int64_t index = zip_file_add(zip, (name + ".npy").c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(src);
      throw CliError("-o: the .npz file could not take " + name + " (" + zip_strerror(zip) + ")");
    }
    zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0);
  };
  members.reserve(1);  // the tokens' buffer, handed to libzip: it must not move
  for (const StoredArray& a : store.arrays()) add(a.name, npy_header(npy_descr(a.type), a.shape), &a, "");
  // The tokens as fixed-width Unicode strings, which np.load reads without pickle.
  std::vector<std::u32string> cps;
  std::size_t width = 1;
  for (const std::string& t : store.tokens) {
    cps.push_back(code_points(t));
    width = std::max(width, cps.back().size());
  }
  std::string chars;
  for (const std::u32string& cp : cps)
    for (std::size_t i = 0; i < width; ++i) {
      const char32_t c = i < cp.size() ? cp[i] : 0;
      for (int b = 0; b < 4; ++b) chars += static_cast<char>((c >> (8 * b)) & 0xFF);
    }
  add("tokens", npy_header("<U" + std::to_string(width), {static_cast<std::int64_t>(cps.size())}), nullptr, chars);
  if (zip_close(zip) != 0) throw CliError("-o: the .npz file could not be written (" + std::string(zip_strerror(zip)) + "; disk full?)");
  owned.release();  // closed: nothing left to discard
}

}  // namespace

std::optional<ArrayFormat> array_format_named(const std::string& name) {
  if (name == "json") return ArrayFormat::Json;
  if (name == "npz") return ArrayFormat::Npz;
  if (name == "safetensors") return ArrayFormat::Safetensors;
  return std::nullopt;
}

ArrayFormat array_format_for(const std::string& path) {
  if (ends_with(path, ".npz")) return ArrayFormat::Npz;
  if (ends_with(path, ".safetensors")) return ArrayFormat::Safetensors;
  return ArrayFormat::Json;
}

void write_arrays(ArrayStore& store, ArrayFormat format, const std::string& path) {
  if (format == ArrayFormat::Npz && path == "-") throw CliError("-o: an .npz file cannot go to standard output (it is a zip)");
  store.finish();
  OutputFile out("-o", path);
  switch (format) {
    case ArrayFormat::Json: write_json(store, out); break;
    case ArrayFormat::Safetensors: write_safetensors(store, out); break;
    case ArrayFormat::Npz: write_npz(store, out); break;
  }
  out.commit();
}

}  // namespace attn::cli
