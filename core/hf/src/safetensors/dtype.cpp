// The safetensors element types (dtype.hpp): their names, sizes, and the
// F16 and BF16 to float conversions written out here, bit for bit.
#include "attn/hf/safetensors/dtype.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace attn::hf {

std::optional<DType> parse_dtype(std::string_view name) {
  if (name == "F32") return DType::F32;
  if (name == "F16") return DType::F16;
  if (name == "BF16") return DType::BF16;
  if (name == "F64") return DType::F64;
  return std::nullopt;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::F32: return "F32";
    case DType::F16: return "F16";
    case DType::BF16: return "BF16";
    case DType::F64: return "F64";
  }
  return "?";
}

std::size_t dtype_bytes(DType t) {
  switch (t) {
    case DType::F32: return 4;
    case DType::F16: return 2;
    case DType::BF16: return 2;
    case DType::F64: return 8;
  }
  return 0;
}

float half_to_float(std::uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  float magnitude;
  if (exponent == 0)  // zero or subnormal: mantissa * 2^-24
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return negative ? -magnitude : magnitude;
}

float bfloat16_to_float(std::uint16_t bits) {
  // bfloat16 is the top half of a float32.
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float out;
  std::memcpy(&out, &wide, sizeof out);
  return out;
}

double load_element(const unsigned char* data, DType t, std::size_t i) {
  // Little-endian on disk; byte-wise assembly keeps this right on any host
  // and never makes an unaligned load.
  const unsigned char* p = data + i * dtype_bytes(t);
  switch (t) {
    case DType::F16: return half_to_float(static_cast<std::uint16_t>(p[0] | (p[1] << 8)));
    case DType::BF16: return bfloat16_to_float(static_cast<std::uint16_t>(p[0] | (p[1] << 8)));
    case DType::F32: {
      std::uint32_t u = 0;
      for (int b = 3; b >= 0; --b) u = (u << 8) | p[b];
      float f;
      std::memcpy(&f, &u, sizeof f);
      return f;
    }
    case DType::F64: {
      std::uint64_t u = 0;
      for (int b = 7; b >= 0; --b) u = (u << 8) | p[b];
      double d;
      std::memcpy(&d, &u, sizeof d);
      return d;
    }
  }
  return 0.0;
}

}  // namespace attn::hf
