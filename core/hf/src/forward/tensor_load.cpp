// Tensors of the mapped file as weights and matrices (tensor_load.hpp):
// served straight from the mapping when already in the wanted type and
// aligned, else converted element by element from the stored dtype; a
// Linear's [out, in] read transposed and a Conv1D's [in, out] as it is.
#include "forward/tensor_load.hpp"

#include <cstdint>
#include <cstring>

namespace attn::hf::detail {

template <class S>
void convert_elements(const TensorRef& t, std::size_t first, std::size_t count, S* out) {
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
  return *t.info->dtype == want && reinterpret_cast<std::uintptr_t>(t.bytes()) % alignof(S) == 0;
}

template <class S>
Weight<S> load_weight(const TensorRef& t, int in, int out, bool transposed) {
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
