#pragma once
// The element types a Hugging Face checkpoint stores, as safetensors names
// them, and their conversion to the float types the forward pass computes in.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attn::hf {

enum class DType { F32, F16, BF16, F64 };

// "F32", "F16", "BF16", "F64"; nullopt for any other name (I8, F8_E4M3, ...),
// which the caller reports with the tensor's name.
std::optional<DType> parse_dtype(std::string_view name);
std::string_view dtype_name(DType t);
std::size_t dtype_bytes(DType t);

// IEEE binary16 and bfloat16 bit patterns to float, exactly (every value of
// both is a float: subnormals, infinities and NaN included).
float half_to_float(std::uint16_t bits);
float bfloat16_to_float(std::uint16_t bits);

// Element i of a little-endian buffer of type t, widened to double.
// `data` must hold at least (i + 1) * dtype_bytes(t) bytes.
double load_element(const unsigned char* data, DType t, std::size_t i);

}  // namespace attn::hf
