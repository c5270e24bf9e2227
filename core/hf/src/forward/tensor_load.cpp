#include "forward/tensor_load.hpp"

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

template <class S>
MatX<S> load_linear(const TensorRef& t, int in, int out) {
  MatX<S> m(in, out);
  convert_elements(t, 0, static_cast<std::size_t>(in) * out, m.data());
  return m;
}

template <class S>
MatX<S> load_conv1d(const TensorRef& t, int in, int out) {
  // Converted as stored (row-major [in, out] = column-major [out, in]), then transposed.
  MatX<S> stored(out, in);
  convert_elements(t, 0, static_cast<std::size_t>(in) * out, stored.data());
  return stored.transpose();
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
  template MatX<S> load_linear<S>(const TensorRef&, int, int);                          \
  template MatX<S> load_conv1d<S>(const TensorRef&, int, int);                          \
  template RowX<S> load_vector<S>(const TensorRef&);                                    \
  template MatX<S> load_rows<S>(const TensorRef&, int, const std::vector<int>&);
ATTN_HF_INSTANTIATE(float)
ATTN_HF_INSTANTIATE(double)
#undef ATTN_HF_INSTANTIATE

}  // namespace attn::hf::detail
