// CSV and .npy writers at the byte level: the NPY v1.0 header (magic,
// version, little-endian length, dict, space padding to 64 bytes, '\n'),
// C-order doubles (a 2x3 matrix so a transposed dump cannot pass), and CSV
// numbers that read back to exactly the same double, -inf included.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include "attn/io/matrix_export.hpp"

TEST_CASE("npy: v1.0 header padded to 64 bytes, then float64 in C order") {
  attn::Mat m(2, 3);
  m << 1.5, -2, 0.1, -std::numeric_limits<double>::infinity(), 1e-300, 3;
  const std::string npy = attn::io::matrix_to_npy(m);
  REQUIRE(npy.size() > 10);
  CHECK(npy.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
  const size_t header_len = static_cast<unsigned char>(npy[8]) | (static_cast<unsigned char>(npy[9]) << 8);
  const size_t data_at = 10 + header_len;
  CHECK(data_at % 64 == 0);
  const std::string header = npy.substr(10, header_len);
  CHECK(header.rfind("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 0) == 0);
  CHECK(header.back() == '\n');
  REQUIRE(npy.size() == data_at + 6 * sizeof(double));
  for (int i = 0; i < 6; ++i) {
    double v = 0;
    std::memcpy(&v, npy.data() + data_at + static_cast<size_t>(i) * sizeof v, sizeof v);
    CAPTURE(i);
    CHECK(v == m(i / 3, i % 3));  // exact: the bytes are the doubles
  }
}

TEST_CASE("csv: labels quoted when needed, numbers round-trip exactly, -inf spelt -inf") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1e3, 1e3);
  attn::Mat m(3, 2);
  for (Eigen::Index i = 0; i < m.size(); ++i) m(i) = u(rng) / 3;
  m(2, 1) = -std::numeric_limits<double>::infinity();
  const std::string csv = attn::io::matrix_to_csv(m, {"a", "b,c", "d\"e"}, {"k0", "k1"});
  CHECK(csv.rfind(",k0,k1\r\na,", 0) == 0);
  CHECK(csv.find("\r\n\"b,c\",") != std::string::npos);
  CHECK(csv.find("\r\n\"d\"\"e\",") != std::string::npos);
  CHECK(csv.find(",-inf\r\n") != std::string::npos);
  // Every number field parses back to the same double.
  std::vector<double> got;
  size_t line_start = csv.find("\r\n") + 2;
  while (line_start < csv.size()) {
    const size_t line_end = csv.find("\r\n", line_start);
    const std::string line = csv.substr(line_start, line_end - line_start);
    size_t at = line.rfind(',', line.rfind(',') - 1) + 1;  // the last two fields are numbers
    while (at < line.size()) {
      const size_t next = std::min(line.find(',', at), line.size());
      const std::string field = line.substr(at, next - at);
      CHECK(field.size() <= 24);  // at most 17 significant digits plus sign and exponent
      got.push_back(std::strtod(field.c_str(), nullptr));
      at = next + 1;
    }
    line_start = line_end + 2;
  }
  REQUIRE(got.size() == 6);
  for (Eigen::Index r = 0; r < 3; ++r)
    for (Eigen::Index c = 0; c < 2; ++c) CHECK(got[static_cast<size_t>(r * 2 + c)] == m(r, c));
}
