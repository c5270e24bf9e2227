// Tensors of the mapped file as weights and matrices (tensor_load.hpp):
// served straight from the mapping when already in the wanted type and
// aligned, else converted element by element from the stored dtype; a
// Linear's [out, in] read transposed and a Conv1D's [in, out] as it is.
#include "forward/tensor_load.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "attn/hf/gguf/ggml_type.hpp"

namespace attn::hf::detail {

namespace {

// Elements [first, first + count) of a tensor in one of ggml's block types:
// the blocks that hold them, dequantized a bounded run at a time.
template <class S>
void dequantize_elements(const TensorRef& t, std::size_t first, std::size_t count, S* out) {
  const GgmlType type = static_cast<GgmlType>(*t.info->ggml_type);
  const GgmlTypeTraits& traits = *ggml_type_traits(*t.info->ggml_type);
  const std::size_t block = traits.block_elements;
  constexpr std::size_t kRun = 64 * 256;  // weights per run: a multiple of every block size
  std::vector<float> run;
  std::size_t done = 0;
  while (done < count) {
    const std::size_t at = first + done;
    const std::size_t first_block = at / block;
    const std::size_t skip = at - first_block * block;  // before `at` in its block
    const std::size_t want = std::min(count - done, kRun - skip);
    const std::size_t blocks = (skip + want + block - 1) / block;
    run.resize(blocks * block);
    dequantize(type, t.bytes() + first_block * traits.block_bytes, run.size(), run.data());
    for (std::size_t i = 0; i < want; ++i) out[done + i] = static_cast<S>(run[skip + i]);
    done += want;
  }
}

}  // namespace

template <class S>
void convert_elements(const TensorRef& t, std::size_t first, std::size_t count, S* out) {
  if (t.info->ggml_type) return dequantize_elements(t, first, count, out);
  const unsigned char* p = t.bytes();
  // Typed loops per dtype: the mapping is read once, sequentially, and the
  // switch stays out of the inner loop.
  switch (*t.info->dtype) {
    case DType::F32:
      for (std::size_t i = 0; i < count; ++i) {
        float f;
        std::memcpy(&f, p + (first + i) * 4, 4);
        out[i] = static_cast<S>(f);
      }
      return;
    case DType::F64:
      for (std::size_t i = 0; i < count; ++i) {
        double d;
        std::memcpy(&d, p + (first + i) * 8, 8);
        out[i] = static_cast<S>(d);
      }
      return;
    case DType::BF16:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t b;
        std::memcpy(&b, p + (first + i) * 2, 2);
        out[i] = static_cast<S>(bfloat16_to_float(b));
      }
      return;
    case DType::F16:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t b;
        std::memcpy(&b, p + (first + i) * 2, 2);
        out[i] = static_cast<S>(half_to_float(b));
      }
      return;
  }
}

namespace {

template <class S>
bool servable(const TensorRef& t) {
  const DType want = sizeof(S) == 4 ? DType::F32 : DType::F64;
  return t.info->dtype && *t.info->dtype == want && t.info->permuted_heads == 0 &&
         reinterpret_cast<std::uintptr_t>(t.bytes()) % alignof(S) == 0;
}

// Puts back the rows llama.cpp's converter permuted: in each head of `rows
// / heads` rows, Hugging Face's row s * half + j (s: which rotary half, j:
// the pair) was written at 2 j + s, so that ggml rotates adjacent rows.
// Stored [out, in] row-major: column-major W (in x out), rows are its columns.
template <class S>
void unpermute_heads(std::vector<S>& w, Eigen::Index in, Eigen::Index rows, int heads) {
  const Eigen::Index per_head = rows / heads, half = per_head / 2;
  std::vector<S> stored = w;
  for (Eigen::Index h = 0; h < heads; ++h)
    for (Eigen::Index s = 0; s < 2; ++s)
      for (Eigen::Index j = 0; j < half; ++j) {
        const Eigen::Index hf = h * per_head + s * half + j, gg = h * per_head + 2 * j + s;
        std::copy_n(stored.begin() + gg * in, in, w.begin() + hf * in);
      }
}

template <class S>
Weight<S> load_weight(const TensorRef& t, int in, int out, bool transposed) {
  if (t.info->stored_transposed) transposed = !transposed;  // GPT-2's Conv1D as llama.cpp stores it
  Weight<S> w;
  w.in = in;
  w.out = out;
  w.transposed = transposed;
  w.ld = transposed ? out : in;
  const std::size_t count = static_cast<std::size_t>(in) * static_cast<std::size_t>(out);
  if (servable<S>(t)) {
    w.data = reinterpret_cast<const S*>(t.bytes());  // straight from the mapping
  } else {
    auto copy = std::make_shared<std::vector<S>>(count);
    convert_elements(t, 0, count, copy->data());
    if (t.info->permuted_heads > 0) unpermute_heads(*copy, in, out, t.info->permuted_heads);
    w.data = copy->data();
    w.owned = std::move(copy);
  }
  return w;
}

}  // namespace

template <class S>
Weight<S> load_linear(const TensorRef& t, int in, int out) {
  return load_weight<S>(t, in, out, false);
}

template <class S>
Weight<S> load_conv1d(const TensorRef& t, int in, int out) {
  return load_weight<S>(t, in, out, true);
}

template <class S>
RowX<S> load_vector(const TensorRef& t) {
  RowX<S> v(t.info->elements());
  convert_elements(t, 0, static_cast<std::size_t>(v.size()), v.data());
  return v;
}

template <class S>
MatX<S> load_rows(const TensorRef& t, int width, const std::vector<int>& rows) {
  MatX<S> m(static_cast<int>(rows.size()), width);
  RowX<S> row(width);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    convert_elements(t, static_cast<std::size_t>(rows[r]) * width, static_cast<std::size_t>(width), row.data());
    m.row(static_cast<int>(r)) = row;
  }
  return m;
}

#define ATTN_HF_INSTANTIATE(S)                                                          \
  template void convert_elements<S>(const TensorRef&, std::size_t, std::size_t, S*);    \
  template Weight<S> load_linear<S>(const TensorRef&, int, int);                        \
  template Weight<S> load_conv1d<S>(const TensorRef&, int, int);                        \
  template RowX<S> load_vector<S>(const TensorRef&);                                    \
  template MatX<S> load_rows<S>(const TensorRef&, int, const std::vector<int>&);
ATTN_HF_INSTANTIATE(float)
ATTN_HF_INSTANTIATE(double)
#undef ATTN_HF_INSTANTIATE

}  // namespace attn::hf::detail
