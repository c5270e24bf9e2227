// `attn export`: the files it writes are read back by independent readers
// (NumPy for .npy, Python's csv module for CSV, nlohmann for JSON) and every
// value is compared with the trace the core computes here, to 1e-12.
// small.json is causal, so "masked" holds -inf logits that must survive.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "python_reader.hpp"
#include "run_attn.hpp"

using attn::test::parse_double;
using attn::cli::test::run_attn;
using attn::test::run_python;

namespace {

const std::string kSmall = std::string(ATTN_CLI_DATA_DIR) + "/small.json";

std::string out_path(const std::string& name) {
  std::filesystem::create_directories(ATTN_CLI_TEST_TMP);
  const std::string p = std::string(ATTN_CLI_TEST_TMP) + "/" + name;
  std::filesystem::remove(p);
  return p;
}

attn::Trace small_trace() { return attn::compute_trace(attn::io::load_scenario(kSmall).scenario); }

// Compares `got` (row-major) with the stage; prints the worst element.
void check_values(const attn::Stage& s, const std::vector<double>& got) {
  REQUIRE(got.size() == static_cast<size_t>(s.value.rows() * s.value.cols()));
  double worst = 0;
  int wr = -1, wc = -1;
  for (Eigen::Index r = 0; r < s.value.rows(); ++r)
    for (Eigen::Index c = 0; c < s.value.cols(); ++c) {
      const double want = s.value(r, c), have = got[static_cast<size_t>(r * s.value.cols() + c)];
      const double err = std::isinf(want) ? (have == want ? 0.0 : HUGE_VAL) : std::abs(have - want);
      if (err > worst || std::isnan(have)) worst = std::isnan(have) ? HUGE_VAL : err, wr = static_cast<int>(r), wc = static_cast<int>(c);
    }
  INFO("worst element [" << wr << "][" << wc << "] of " << s.id << " head " << s.head << " is off by " << worst);
  CHECK(worst <= 1e-12);
}

const char* kReadNpy = R"py(
import sys
try:
    import numpy as np
    from numpy.lib import format as npf
except ImportError:
    print("python3-numpy is not installed (apt install python3-numpy)"); sys.exit(77)
with open(sys.argv[1], 'rb') as f:
    version = npf.read_magic(f)
    shape, fortran, dtype = npf.read_array_header_1_0(f)
    offset = f.tell()
a = np.load(sys.argv[1], allow_pickle=False)
print(version[0], version[1], int(fortran), dtype.str, offset, a.shape[0], a.shape[1])
for v in a.ravel(order='C'): print(repr(float(v)))
)py";

const char* kReadCsv = R"py(
import csv, sys
with open(sys.argv[1], newline='') as f:
    rows = list(csv.reader(f))
print(len(rows) - 1, len(rows[0]) - 1)
print('|'.join(rows[0][1:]))
print('|'.join(r[0] for r in rows[1:]))
for r in rows[1:]:
    for v in r[1:]: print(repr(float(v)))
)py";

std::vector<double> numbers_from(const std::vector<std::string>& lines, size_t first) {
  std::vector<double> out;
  for (size_t i = first; i < lines.size(); ++i) out.push_back(parse_double(lines[i]));
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : "|") + s;
  return out;
}

}  // namespace

TEST_CASE("attn export .npy is read back by NumPy: float64, C order, 64-byte header, -inf kept") {
  const attn::Trace trace = small_trace();
  for (const auto& [stage, head] : std::vector<std::pair<std::string, int>>{{"masked", 1}, {"weights", 0}, {"q", 1}, {"x", -1}}) {
    CAPTURE(stage);
    const std::string out = out_path(stage + ".npy");
    std::vector<std::string> args{"export", kSmall, "--stage", stage, "-o", out};
    if (head >= 0) args.insert(args.end(), {"--head", std::to_string(head)});
    const auto r = run_attn(args);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto py = run_python(kReadNpy, {out});
    if (!py.ran) {
      MESSAGE("skipped the NumPy read-back: " << py.skip_reason);
      return;
    }
    REQUIRE(py.status == 0);
    REQUIRE(!py.lines.empty());
    const attn::Stage* s = trace.find_named(stage, head);
    REQUIRE(s);
    std::istringstream head_line(py.lines[0]);
    int major = 0, minor = 0, fortran = 1, offset = 0;
    long rows = 0, cols = 0;
    std::string dtype;
    head_line >> major >> minor >> fortran >> dtype >> offset >> rows >> cols;
    CHECK(major == 1);
    CHECK(minor == 0);
    CHECK(fortran == 0);
    CHECK(dtype == "<f8");
    CHECK(offset % 64 == 0);
    CHECK(rows == s->value.rows());
    CHECK(cols == s->value.cols());
    check_values(*s, numbers_from(py.lines, 1));
    if (stage == "masked") CHECK(std::isinf(parse_double(py.lines[2])));  // [0][1] is blocked by the causal mask
  }
}

TEST_CASE("attn export .csv is read back by Python's csv module with labels and -inf") {
  const attn::Trace trace = small_trace();
  const std::string out = out_path("masked.csv");
  const auto r = run_attn({"export", kSmall, "--stage", "masked", "--head", "0", "-o", out});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("-inf") != std::string::npos);  // documented spelling of masked logits
  const auto py = run_python(kReadCsv, {out});
  if (!py.ran) {
    MESSAGE("skipped the csv read-back: " << py.skip_reason);
    return;
  }
  REQUIRE(py.status == 0);
  REQUIRE(py.lines.size() > 3);
  const attn::Stage* s = trace.find(attn::StageKind::masked, 0);
  REQUIRE(s);
  CHECK(py.lines[0] == std::to_string(s->value.rows()) + " " + std::to_string(s->value.cols()));
  CHECK(py.lines[1] == joined(s->col_labels));
  CHECK(py.lines[2] == joined(s->row_labels));
  check_values(*s, numbers_from(py.lines, 3));
}

TEST_CASE("attn export .json writes the whole trace in the published format") {
  const std::string out = out_path("trace.json");
  const auto r = run_attn({"export", kSmall, "-o", out});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::ifstream in(out);
  const nlohmann::json got = nlohmann::json::parse(in);
  CHECK(got == attn::io::trace_to_json(small_trace()));
}
