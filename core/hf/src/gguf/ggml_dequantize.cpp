// Dequantizing ggml's blocks (ggml_type.hpp). Each block type is a small
// record: one or two half-precision scales, sometimes packed 4- or 6-bit
// sub-scales, and the weights as 2- to 8-bit integers, their low bits and
// high bits often in separate arrays. The arithmetic is float, in ggml's
// order: sub-scale = scale * integer, weight = sub-scale * q - minimum. This
// file is compiled without contracting a multiply and an add into one
// (CMakeLists.txt), which would round once instead of twice.
#include <cstring>

#include "attn/hf/gguf/ggml_type.hpp"
#include "attn/hf/safetensors/dtype.hpp"

namespace attn::hf {
namespace {

using u8 = unsigned char;

float half_at(const u8* p) {
  std::uint16_t bits = 0;
  std::memcpy(&bits, p, 2);
  return half_to_float(bits);
}

// Q4_0: scale d, then 16 bytes: weights 0-15 in the low nibbles, 16-31 in
// the high ones, each stored + 8.
void q4_0(const u8* b, float* y) {
  const float d = half_at(b);
  const u8* qs = b + 2;
  for (int i = 0; i < 16; ++i) {
    y[i] = static_cast<float>((qs[i] & 0x0F) - 8) * d;
    y[i + 16] = static_cast<float>((qs[i] >> 4) - 8) * d;
  }
}

// Q4_1: scale d and minimum m; weight = d * q + m.
void q4_1(const u8* b, float* y) {
  const float d = half_at(b), m = half_at(b + 2);
  const u8* qs = b + 4;
  for (int i = 0; i < 16; ++i) {
    y[i] = d * static_cast<float>(qs[i] & 0x0F) + m;
    y[i + 16] = d * static_cast<float>(qs[i] >> 4) + m;
  }
}

// The fifth bits of Q5_0 and Q5_1: one 32-bit little-endian word, bit i for weight i.
std::uint32_t fifth_bits(const u8* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// Q5_0: scale d, the fifth bits, then nibbles as in Q4_0; stored + 16.
void q5_0(const u8* b, float* y) {
  const float d = half_at(b);
  const std::uint32_t qh = fifth_bits(b + 2);
  const u8* qs = b + 6;
  for (int i = 0; i < 16; ++i) {
    const int lo = (qs[i] & 0x0F) | static_cast<int>((qh >> i) & 1) << 4;
    const int hi = (qs[i] >> 4) | static_cast<int>((qh >> (i + 16)) & 1) << 4;
    y[i] = d * static_cast<float>(lo - 16);
    y[i + 16] = d * static_cast<float>(hi - 16);
  }
}

// Q5_1: scale d, minimum m, the fifth bits, the nibbles.
void q5_1(const u8* b, float* y) {
  const float d = half_at(b), m = half_at(b + 2);
  const std::uint32_t qh = fifth_bits(b + 4);
  const u8* qs = b + 8;
  for (int i = 0; i < 16; ++i) {
    const int lo = (qs[i] & 0x0F) | static_cast<int>((qh >> i) & 1) << 4;
    const int hi = (qs[i] >> 4) | static_cast<int>((qh >> (i + 16)) & 1) << 4;
    y[i] = d * static_cast<float>(lo) + m;
    y[i + 16] = d * static_cast<float>(hi) + m;
  }
}

// Q8_0: scale d, then 32 signed bytes.
void q8_0(const u8* b, float* y) {
  const float d = half_at(b);
  for (int i = 0; i < 32; ++i) y[i] = static_cast<float>(static_cast<signed char>(b[2 + i])) * d;
}

// Q2_K (256 weights): 16 bytes of sub-scales (low nibble: scale, high:
// minimum, each for 16 weights), 64 bytes of 2-bit weights, then d and dmin.
// Byte j of a 32-byte half holds four weights 32 apart.
void q2_k(const u8* b, float* y) {
  const u8* scales = b;
  const u8* qs = b + 16;
  const float d = half_at(b + 80), dmin = half_at(b + 82);
  for (int e = 0; e < 256; ++e) {
    const int half = e / 128, shift = (e % 128) / 32, l = e % 32;
    const int q = (qs[half * 32 + l] >> (2 * shift)) & 3;
    const u8 sc = scales[e / 16];
    const float dl = d * static_cast<float>(sc & 0x0F);
    const float ml = dmin * static_cast<float>(sc >> 4);
    y[e] = dl * static_cast<float>(q) - ml;
  }
}

// Q3_K (256 weights): 32 bytes of third bits, 64 bytes of low 2 bits (laid
// out as Q2_K's), 12 bytes of 6-bit signed sub-scales (low 4 bits in the
// first 8 bytes' nibbles, high 2 bits in the last 4 bytes' pairs), then d.
// A clear third bit means the 2-bit value is lowered by 4.
void q3_k(const u8* b, float* y) {
  const u8* hmask = b;
  const u8* qs = b + 32;
  const u8* packed = b + 96;
  const float d = half_at(b + 108);
  float dl[16];
  for (int i = 0; i < 16; ++i) {
    const int lo = (i < 8 ? packed[i] : packed[i - 8] >> 4) & 0x0F;
    const int hi = (packed[8 + i % 4] >> (2 * (i / 4))) & 3;
    dl[i] = d * static_cast<float>((lo | hi << 4) - 32);
  }
  for (int e = 0; e < 256; ++e) {
    const int half = e / 128, shift = (e % 128) / 32, l = e % 32;
    const int low = (qs[half * 32 + l] >> (2 * shift)) & 3;
    const int third = (hmask[l] >> (e / 32)) & 1;
    y[e] = dl[e / 16] * static_cast<float>(low - (third ? 0 : 4));
  }
}

// The 6-bit scales and minimums of the eight 32-weight sub-blocks of Q4_K
// and Q5_K, packed in 12 bytes: sub-blocks 0-3 in the low 6 bits of bytes
// 0-3 (scales) and 4-7 (minimums); sub-blocks 4-7 in the nibbles of bytes
// 8-11, with their top 2 bits in the top bits of bytes 0-7.
void k_scales(const u8* p, int sub, int* scale, int* min) {
  if (sub < 4) {
    *scale = p[sub] & 63;
    *min = p[sub + 4] & 63;
  } else {
    *scale = (p[sub + 4] & 0x0F) | (p[sub - 4] >> 6) << 4;
    *min = (p[sub + 4] >> 4) | (p[sub] >> 6) << 4;
  }
}

// Sub-block `sub`'s step and minimum in Q4_K and Q5_K, which both start
// with d, dmin and the packed scales: d * scale and dmin * min, in float.
void k_step_and_min(const u8* b, int sub, float* step, float* min) {
  int sc = 0, m = 0;
  k_scales(b + 4, sub, &sc, &m);
  *step = half_at(b) * static_cast<float>(sc);
  *min = half_at(b + 2) * static_cast<float>(m);
}

// Q4_K (256 weights): d, dmin, the packed scales, then 128 bytes: each
// 32-byte run holds one sub-block in its low nibbles and the next in its high.
void q4_k(const u8* b, float* y) {
  const u8* qs = b + 16;
  for (int sub = 0; sub < 8; ++sub) {
    float step = 0, min = 0;
    k_step_and_min(b, sub, &step, &min);
    const u8* run = qs + 32 * (sub / 2);
    for (int l = 0; l < 32; ++l) y[sub * 32 + l] = step * static_cast<float>((run[l] >> (4 * (sub % 2))) & 0x0F) - min;
  }
}

// Q5_K: as Q4_K, with 32 bytes of fifth bits before the nibbles (bit s of
// byte l: weight l of sub-block s).
void q5_k(const u8* b, float* y) {
  const u8* qh = b + 16;
  const u8* qs = b + 48;
  for (int sub = 0; sub < 8; ++sub) {
    float step = 0, min = 0;
    k_step_and_min(b, sub, &step, &min);
    const u8* run = qs + 32 * (sub / 2);
    for (int l = 0; l < 32; ++l) {
      const int q = ((run[l] >> (4 * (sub % 2))) & 0x0F) | ((qh[l] >> sub) & 1) << 4;
      y[sub * 32 + l] = step * static_cast<float>(q) - min;
    }
  }
}

// Q6_K (256 weights): 128 bytes of low nibbles, 64 bytes of high 2-bit
// pairs, 16 signed 8-bit sub-scales, then d; stored + 32. In each 128-weight
// half, low-nibble byte l serves weights l (low) and l + 64 (high), and
// high-bits byte l serves weights l, l + 32, l + 64 and l + 96.
void q6_k(const u8* b, float* y) {
  const u8* ql = b;
  const u8* qh = b + 128;
  const signed char* scales = reinterpret_cast<const signed char*>(b + 192);
  const float d = half_at(b + 208);
  for (int e = 0; e < 256; ++e) {
    const int half = e / 128, r = e % 128;
    const int low = (ql[half * 64 + r % 64] >> (4 * (r / 64))) & 0x0F;
    const int high = (qh[half * 32 + r % 32] >> (2 * (r / 32))) & 3;
    const float ds = d * static_cast<float>(scales[e / 16]);
    y[e] = ds * static_cast<float>((low | high << 4) - 32);
  }
}

}  // namespace

void dequantize(GgmlType type, const unsigned char* blocks, std::size_t count, float* out) {
  const GgmlTypeTraits* traits = ggml_type_traits(static_cast<std::uint32_t>(type));
  if (!traits || !traits->dequantized || count == 0) return;  // (an empty tensor: memcpy of nothing from nothing)
  const std::size_t n_blocks = count / traits->block_elements;
  void (*block)(const u8*, float*) = nullptr;
  switch (type) {
    case GgmlType::F32:
      std::memcpy(out, blocks, count * 4);
      return;
    case GgmlType::F16:
      for (std::size_t i = 0; i < count; ++i) out[i] = half_at(blocks + 2 * i);
      return;
    case GgmlType::BF16:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t bits = 0;
        std::memcpy(&bits, blocks + 2 * i, 2);
        out[i] = bfloat16_to_float(bits);
      }
      return;
    case GgmlType::Q4_0: block = q4_0; break;
    case GgmlType::Q4_1: block = q4_1; break;
    case GgmlType::Q5_0: block = q5_0; break;
    case GgmlType::Q5_1: block = q5_1; break;
    case GgmlType::Q8_0: block = q8_0; break;
    case GgmlType::Q2_K: block = q2_k; break;
    case GgmlType::Q3_K: block = q3_k; break;
    case GgmlType::Q4_K: block = q4_k; break;
    case GgmlType::Q5_K: block = q5_k; break;
    case GgmlType::Q6_K: block = q6_k; break;
    default: return;
  }
  for (std::size_t i = 0; i < n_blocks; ++i)
    block(blocks + i * traits->block_bytes, out + i * traits->block_elements);
}

}  // namespace attn::hf
