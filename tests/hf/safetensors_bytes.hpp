#pragma once
// Safetensors files built in memory, valid or damaged on purpose: the tests
// write the exact on-disk layout (u64 header length, JSON header, data) and
// then lie in it one way at a time.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace attn::hf::test {

struct FakeTensor {
  std::string name;
  std::string dtype = "F32";
  std::vector<std::int64_t> shape;
  std::vector<float> values;  // converted to dtype (F32, F16 by rounding, BF16 by truncation)
};

// The file's bytes. `header_override`, when not empty, replaces the JSON
// header (the data still follows); `extra_data` is appended after the data.
std::string safetensors_bytes(const std::vector<FakeTensor>& tensors, const std::string& header_override = "",
                              const std::string& extra_data = "");
// The JSON header safetensors_bytes would write, to edit in a test.
std::string safetensors_header(const std::vector<FakeTensor>& tensors);
// The 8-byte length + header + data layout around a given header and data.
std::string safetensors_layout(const std::string& header, const std::string& data);

std::filesystem::path fresh_dir(const std::string& name);
void write_file(const std::filesystem::path& p, const std::string& bytes);

}  // namespace attn::hf::test
