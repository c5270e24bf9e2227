// Building valid and damaged safetensors bytes in memory (safetensors_bytes.hpp).
#include "safetensors_bytes.hpp"

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace attn::hf::test {

namespace {

std::string encode(const FakeTensor& t) {
  std::string out;
  for (float f : t.values) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    if (t.dtype == "F32") {
      for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((u >> (8 * b)) & 0xff));
    } else if (t.dtype == "BF16") {
      const std::uint16_t h = static_cast<std::uint16_t>(u >> 16);
      out.push_back(static_cast<char>(h & 0xff));
      out.push_back(static_cast<char>(h >> 8));
    } else {  // F16 (normal values only: what the tests use)
      const std::uint32_t sign = (u >> 16) & 0x8000;
      const int exp = static_cast<int>((u >> 23) & 0xff) - 127 + 15;
      std::uint16_t h = static_cast<std::uint16_t>(sign);
      if (f != 0.0f) h = static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp) << 10) | ((u >> 13) & 0x3ff));
      out.push_back(static_cast<char>(h & 0xff));
      out.push_back(static_cast<char>(h >> 8));
    }
  }
  return out;
}

std::string all_data(const std::vector<FakeTensor>& tensors) {
  std::string data;
  for (const auto& t : tensors) data += encode(t);
  return data;
}

}  // namespace

std::string safetensors_header(const std::vector<FakeTensor>& tensors) {
  nlohmann::json h = nlohmann::json::object();
  std::size_t at = 0;
  for (const auto& t : tensors) {
    const std::size_t bytes = encode(t).size();
    h[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {at, at + bytes}}};
    at += bytes;
  }
  h["__metadata__"] = {{"format", "pt"}};
  return h.dump();
}

std::string safetensors_layout(const std::string& header, const std::string& data) {
  std::string padded = header;
  while (padded.size() % 8 != 0) padded.push_back(' ');  // as the reference writer pads
  std::string out;
  std::uint64_t n = padded.size();
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
  return out + padded + data;
}

std::string safetensors_bytes(const std::vector<FakeTensor>& tensors, const std::string& header_override,
                              const std::string& extra_data) {
  const std::string header = header_override.empty() ? safetensors_header(tensors) : header_override;
  return safetensors_layout(header, all_data(tensors) + extra_data);
}

std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(ATTN_HF_TEST_TMP) / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

void write_file(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

}  // namespace attn::hf::test
