// The safetensors reader: values of each dtype read back exactly, and every
// kind of damaged or lying file refused with a message naming the problem,
// before any tensor byte is touched.
#include <doctest/doctest.h>

#include <string>

#include "attn/hf/model_error.hpp"
#include "attn/hf/safetensors/safetensors.hpp"
#include "safetensors_bytes.hpp"

using namespace attn::hf;
using namespace attn::hf::test;

namespace {

std::shared_ptr<const SafetensorsFile> view_of(const std::string& bytes) {
  return SafetensorsFile::view(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), "test.safetensors");
}

// The ModelError message for `bytes`, or "" when they open.
std::string refusal(const std::string& bytes) {
  try {
    view_of(bytes);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

const std::vector<FakeTensor> kTwo = {{"a", "F32", {2, 3}, {1, -2, 3.5f, 0, 1e-3f, 7}},
                                      {"b", "BF16", {2}, {1.5f, -0.25f}}};

}  // namespace

TEST_CASE("safetensors: a valid file lists its tensors and reads each dtype exactly") {
  const std::string bytes = safetensors_bytes(
      {{"f32", "F32", {2, 2}, {1.25f, -3, 0.1f, 1e30f}}, {"bf16", "BF16", {3}, {1.5f, -0.25f, 256}},
       {"f16", "F16", {2}, {0.5f, -6.25f}}, {"empty", "F32", {0, 4}, {}}});
  const auto f = view_of(bytes);
  REQUIRE(f->tensors().size() == 4);
  const TensorInfo* t = f->find("f32");
  REQUIRE(t);
  CHECK(t->shape == std::vector<std::int64_t>{2, 2});
  CHECK(load_element(f->bytes(*t), DType::F32, 2) == static_cast<double>(0.1f));
  CHECK(load_element(f->bytes(*t), DType::F32, 3) == static_cast<double>(1e30f));
  const TensorInfo* b = f->find("bf16");
  CHECK(load_element(f->bytes(*b), DType::BF16, 0) == 1.5);
  CHECK(load_element(f->bytes(*b), DType::BF16, 1) == -0.25);
  CHECK(load_element(f->bytes(*b), DType::BF16, 2) == 256);
  const TensorInfo* h = f->find("f16");
  CHECK(load_element(f->bytes(*h), DType::F16, 0) == 0.5);
  CHECK(load_element(f->bytes(*h), DType::F16, 1) == -6.25);
  CHECK(f->find("missing") == nullptr);
}

TEST_CASE("safetensors: half and bfloat16 bit patterns widen exactly, subnormals and infinities included") {
  CHECK(half_to_float(0x3c00) == 1.0f);
  CHECK(half_to_float(0xc000) == -2.0f);
  CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));  // the smallest subnormal
  CHECK(half_to_float(0x7bff) == 65504.0f);               // the largest finite half
  CHECK(std::isinf(half_to_float(0x7c00)));
  CHECK(std::isnan(half_to_float(0x7e00)));
  CHECK(bfloat16_to_float(0x3f80) == 1.0f);
  CHECK(bfloat16_to_float(0xc2f7) == -123.5f);
}

TEST_CASE("safetensors: a truncated file is refused with its size") {
  CHECK(refusal("abc").find("truncated: 3 bytes") != std::string::npos);
  std::string cut = safetensors_bytes(kTwo);
  cut.resize(20);
  CHECK(refusal(cut).find("truncated") != std::string::npos);
  std::string short_data = safetensors_bytes(kTwo);
  short_data.resize(short_data.size() - 2);
  const std::string why = refusal(short_data);
  CHECK_MESSAGE(why.find("runs past the end of the file") != std::string::npos, why);
}

TEST_CASE("safetensors: a header claiming more than 100 MB is refused before it is read") {
  std::string bytes(16, '\0');
  const std::uint64_t huge = (100ull << 20) + 1;
  for (int b = 0; b < 8; ++b) bytes[static_cast<std::size_t>(b)] = static_cast<char>((huge >> (8 * b)) & 0xff);
  CHECK(refusal(bytes).find("more than the 100 MB") != std::string::npos);
}

TEST_CASE("safetensors: ranges that overlap, leave a gap or leave bytes over are refused") {
  const std::string data(24 + 4, '\0');
  SUBCASE("overlap") {
    const std::string h = R"({"a":{"dtype":"F32","shape":[6],"data_offsets":[0,24]},
                              "b":{"dtype":"BF16","shape":[2],"data_offsets":[20,24]}})";
    const std::string why = refusal(safetensors_layout(h, std::string(24, '\0')));
    CHECK_MESSAGE(why.find("overlap") != std::string::npos, why);
  }
  SUBCASE("gap") {
    const std::string h = R"({"a":{"dtype":"F32","shape":[5],"data_offsets":[0,20]},
                              "b":{"dtype":"BF16","shape":[2],"data_offsets":[24,28]}})";
    const std::string why = refusal(safetensors_layout(h, data));
    CHECK_MESSAGE(why.find("a gap of 4 bytes before tensor \"b\"") != std::string::npos, why);
  }
  SUBCASE("past the file") {
    const std::string h = R"({"a":{"dtype":"F32","shape":[100],"data_offsets":[0,400]}})";
    const std::string why = refusal(safetensors_layout(h, data));
    CHECK_MESSAGE(why.find("runs past the end") != std::string::npos, why);
  }
  SUBCASE("bytes left over") {
    const std::string why = refusal(safetensors_bytes(kTwo, "", "junk"));
    CHECK_MESSAGE(why.find("4 bytes after the last tensor") != std::string::npos, why);
  }
  SUBCASE("begin after end") {
    const std::string h = R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})";
    CHECK(refusal(safetensors_layout(h, data)).find("end before they begin") != std::string::npos);
  }
}

TEST_CASE("safetensors: a shape that disagrees with the byte range, or overflows, is refused") {
  const std::string h = R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}})";
  CHECK(refusal(safetensors_layout(h, std::string(12, '\0'))).find("need 4 x 4") != std::string::npos);
  const std::string huge =
      R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,12]}})";
  CHECK(refusal(safetensors_layout(huge, std::string(12, '\0'))).find("larger than the whole file") != std::string::npos);
  const std::string negative = R"({"a":{"dtype":"F32","shape":[-3],"data_offsets":[0,12]}})";
  CHECK(refusal(safetensors_layout(negative, std::string(12, '\0'))).find("not a non-negative integer") !=
        std::string::npos);
}

TEST_CASE("safetensors: unknown dtypes and malformed headers are named") {
  const std::string q = R"({"w":{"dtype":"Q4_K","shape":[4],"data_offsets":[0,4]}})";
  CHECK(refusal(safetensors_layout(q, std::string(4, '\0'))).find("tensor \"w\" has unknown dtype \"Q4_K\"") !=
        std::string::npos);
  // I8 is a real safetensors type: the file opens, and the model refuses the tensor when it is used.
  const std::string i8 = R"({"w":{"dtype":"I8","shape":[4],"data_offsets":[0,4]}})";
  const std::string bytes = safetensors_layout(i8, std::string(4, '\0'));
  const auto f = view_of(bytes);
  CHECK_FALSE(f->find("w")->dtype.has_value());
  CHECK(refusal(safetensors_layout("{not json", "")).find("not valid JSON") != std::string::npos);
  CHECK(refusal(safetensors_layout("[1,2]", "")).find("not a JSON object") != std::string::npos);
  CHECK(refusal(safetensors_layout(R"({"w":{"dtype":"F32","shape":[1]}})", std::string(4, '\0')))
            .find("no data_offsets") != std::string::npos);
  CHECK(refusal(safetensors_layout(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", std::string(4, '\0')))
            .find("no dtype") != std::string::npos);
}

TEST_CASE("safetensors: a file on disk is mapped, and a missing one named") {
  const auto dir = fresh_dir("safetensors_disk");
  write_file(dir / "m.safetensors", safetensors_bytes(kTwo));
  const auto f = SafetensorsFile::open(dir / "m.safetensors");
  CHECK(f->tensors().size() == 2);
  CHECK(load_element(f->bytes(*f->find("a")), DType::F32, 2) == 3.5);
  try {
    SafetensorsFile::open(dir / "absent.safetensors");
    FAIL("opened a missing file");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("cannot open") != std::string::npos);
  }
}
