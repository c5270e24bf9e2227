// A llama-architecture GGUF (version 3) with random Q4_K weights in
// Llama-3.2-1B's shape, written by the model benchmark so that a ~0.7 GB
// model is never committed or downloaded. Its layout is llama.cpp's: the
// model's metadata keys as convert_hf_to_gguf.py writes them, tensors named
// blk.N.attn_q and so on (row length first in the dimensions), norm weights
// in F32, every matrix in Q4_K, no output.weight (Llama 3.2 ties the head to
// the token embedding), and no tokenizer (the benchmark passes token ids).
//
// A Q4_K block holds 256 weights in 144 bytes: f16 d, f16 dmin, 12 bytes of
// eight 6-bit scales and mins, 128 bytes of 4-bit quants; weight = d *
// scale * q - dmin * min. Here scales, mins and quants are random bytes,
// and d and dmin are chosen so that the weights have mean 0 and std 0.02
// like the BF16 checkpoints' (random_checkpoint.hpp). Q's and K's rows are
// left as written: llama.cpp interleaves the rotary halves of real rows,
// but random rows reordered are as random, and attnviz still undoes the
// interleaving when it reads them, so it costs what a real file's would.
// Written tensor by tensor, a bounded run of blocks at a time.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "attn/hf/gguf/ggml_type.hpp"
#include "attn/hf/safetensors/dtype.hpp"

namespace bench {

struct LlamaShape {
  int layers = 16, d = 2048, heads = 32, kv_heads = 8, ff = 8192, vocab = 128256;
  double rope_theta = 500000, rms_eps = 1e-5;
  int context = 131072;
};

namespace gguf_detail {

constexpr std::uint64_t kAlignment = 32;  // general.alignment, llama.cpp's default

// Little-endian fields of the header, appended to `out`.
template <class T>
void put(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}
inline void put_string(std::string& out, const std::string& s) {
  put<std::uint64_t>(out, s.size());
  out += s;
}

// Metadata value types (gguf.md).
enum : std::uint32_t { kU32 = 4, kF32 = 6, kString = 8 };

// The half nearest `x`, found by the reader's own decoder rather than
// hand-written bit rounding (x is a small positive normal number here).
inline std::uint16_t nearest_half(float x) {
  std::uint16_t best = 0;
  for (std::uint32_t h = 0; h < 0x7C00; ++h)  // every finite non-negative half
    if (std::fabs(attn::hf::half_to_float(static_cast<std::uint16_t>(h)) - x) <
        std::fabs(attn::hf::half_to_float(best) - x))
      best = static_cast<std::uint16_t>(h);
  return best;
}

struct Planned {
  std::string name;
  std::vector<std::uint64_t> dims;  // row length first, as ggml lists them
  bool matrix;                      // Q4_K; else an F32 norm weight of ones
};

}  // namespace gguf_detail

inline void write_random_llama_gguf(const std::filesystem::path& file, const LlamaShape& s = {},
                                    std::uint64_t seed = 5) {
  using namespace gguf_detail;
  const auto d = static_cast<std::uint64_t>(s.d), ff = static_cast<std::uint64_t>(s.ff);
  const std::uint64_t head_dim = d / static_cast<std::uint64_t>(s.heads);
  const std::uint64_t kv = head_dim * static_cast<std::uint64_t>(s.kv_heads);
  // The embedding, each block, the final norm (a reader finds each by the table).
  std::vector<Planned> plan{{"token_embd.weight", {d, static_cast<std::uint64_t>(s.vocab)}, true}};
  for (int l = 0; l < s.layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    plan.push_back({b + "attn_norm.weight", {d}, false});
    plan.push_back({b + "attn_q.weight", {d, d}, true});
    plan.push_back({b + "attn_k.weight", {d, kv}, true});
    plan.push_back({b + "attn_v.weight", {d, kv}, true});
    plan.push_back({b + "attn_output.weight", {d, d}, true});
    plan.push_back({b + "ffn_norm.weight", {d}, false});
    plan.push_back({b + "ffn_gate.weight", {d, ff}, true});
    plan.push_back({b + "ffn_up.weight", {d, ff}, true});
    plan.push_back({b + "ffn_down.weight", {ff, d}, true});
  }
  plan.push_back({"output_norm.weight", {d}, false});

  const attn::hf::GgmlTypeTraits& q4k = *attn::hf::ggml_type_traits(static_cast<std::uint32_t>(attn::hf::GgmlType::Q4_K));
  const auto bytes_of = [&](const Planned& t) {
    std::uint64_t n = 1;
    for (std::uint64_t x : t.dims) n *= x;
    return t.matrix ? n / q4k.block_elements * q4k.block_bytes : n * 4;
  };
  const auto padded = [](std::uint64_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; };

  // The model's keys as llama.cpp's converter writes them for a Llama 3.2
  // (its descriptive general.* keys and the tokenizer's left out).
  std::string meta;
  std::uint64_t entries = 0;
  const auto key = [&](const std::string& k, std::uint32_t type) {
    put_string(meta, k);
    put<std::uint32_t>(meta, type);
    ++entries;
  };
  const auto u32 = [&](const std::string& k, std::uint64_t v) {
    key(k, kU32);
    put<std::uint32_t>(meta, static_cast<std::uint32_t>(v));
  };
  const auto f32 = [&](const std::string& k, double v) {
    key(k, kF32);
    put<float>(meta, static_cast<float>(v));
  };
  key("general.architecture", kString);
  put_string(meta, "llama");
  key("general.name", kString);
  put_string(meta, "random Llama-3.2-1B shape");
  u32("general.file_type", 14);  // LLAMA_FTYPE_MOSTLY_Q4_K_S: every matrix Q4_K
  u32("general.quantization_version", 2);
  u32("general.alignment", kAlignment);  // the default, written out
  u32("llama.vocab_size", static_cast<std::uint64_t>(s.vocab));
  u32("llama.context_length", static_cast<std::uint64_t>(s.context));
  u32("llama.embedding_length", d);
  u32("llama.block_count", static_cast<std::uint64_t>(s.layers));
  u32("llama.feed_forward_length", ff);
  u32("llama.attention.head_count", static_cast<std::uint64_t>(s.heads));
  u32("llama.attention.head_count_kv", static_cast<std::uint64_t>(s.kv_heads));
  u32("llama.attention.key_length", head_dim);
  u32("llama.attention.value_length", head_dim);
  u32("llama.rope.dimension_count", head_dim);
  f32("llama.rope.freq_base", s.rope_theta);
  f32("llama.attention.layer_norm_rms_epsilon", s.rms_eps);

  std::string h = "GGUF";
  put<std::uint32_t>(h, 3);
  put<std::uint64_t>(h, plan.size());
  put<std::uint64_t>(h, entries);
  h += meta;
  std::uint64_t offset = 0;
  for (const Planned& t : plan) {
    put_string(h, t.name);
    put<std::uint32_t>(h, static_cast<std::uint32_t>(t.dims.size()));
    for (std::uint64_t x : t.dims) put<std::uint64_t>(h, x);
    put<std::uint32_t>(h, static_cast<std::uint32_t>(t.matrix ? attn::hf::GgmlType::Q4_K : attn::hf::GgmlType::F32));
    put<std::uint64_t>(h, offset);
    offset += padded(bytes_of(t));
  }
  h.resize(padded(h.size()), '\0');  // the data section starts aligned

  // Random scale, min and quant: E[scale] = E[min] = 31.5, E[q] = 7.5, so
  // dmin = 7.5 d makes the mean 0, and the variance is then
  // d^2 (E[scale^2] E[q^2] - (31.5 * 7.5)^2 + 7.5^2 Var(min)) = 66727.5 d^2.
  const float std_wanted = 0.02f;
  const float d_scale = std_wanted / std::sqrt(66727.5f);
  const std::uint16_t d_half = nearest_half(d_scale), dmin_half = nearest_half(7.5f * d_scale);

  std::ofstream out(file, std::ios::binary);
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  std::mt19937_64 rng(seed);
  constexpr std::uint64_t kRunBlocks = 4096;  // ~0.6 MB written at a time
  std::vector<char> buf;
  for (const Planned& t : plan) {
    const std::uint64_t bytes = bytes_of(t);
    if (!t.matrix) {
      const std::vector<float> ones(bytes / 4, 1.0f);
      out.write(reinterpret_cast<const char*>(ones.data()), static_cast<std::streamsize>(bytes));
    } else {
      for (std::uint64_t done = 0; done < bytes;) {
        const std::uint64_t run = std::min<std::uint64_t>(bytes - done, kRunBlocks * q4k.block_bytes);
        buf.resize(run);
        for (std::uint64_t i = 0; i < run; i += 8) {
          const std::uint64_t r = rng();
          std::memcpy(&buf[i], &r, std::min<std::uint64_t>(8, run - i));
        }
        for (std::uint64_t b = 0; b < run; b += q4k.block_bytes) {
          std::memcpy(&buf[b], &d_half, 2);
          std::memcpy(&buf[b + 2], &dmin_half, 2);
        }
        out.write(buf.data(), static_cast<std::streamsize>(run));
        done += run;
      }
    }
    for (std::uint64_t p = bytes; p < padded(bytes); ++p) out.put('\0');
  }
}

}  // namespace bench
