// Typed field readers (see json_fields.hpp). Shape is checked row by row in
// file order so the first problem a reader would spot is the one reported:
// a bad row before a bad cell further down.
#include "json/json_fields.hpp"

#include <cmath>

#include "attn/io/excerpt.hpp"
#include "attn/io/scenario_file.hpp"
#include "json/field_path.hpp"

namespace attn::io::detail {

using nlohmann::json;

std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case json::value_t::string:
      return "string " + quoted_excerpt(v.get_ref<const std::string&>());
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "number " + v.dump();
    case json::value_t::array:
      return v.empty() ? "an empty array" : "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw FormatError(path + ": " + problem);
}

// A count from `least` to `limit`, stated with both ends when refused.
void check_count(long long count, long long least, long long limit, const std::string& path, const char* what) {
  if (count < least || count > limit) {
    fail(path, "expected " + std::to_string(least) + " to " + std::to_string(limit) + " " + what + ", got " +
                   (count == 0 ? std::string("an empty array") : std::to_string(count)));
  }
}

struct GridShape {
  Eigen::Index rows = 0, cols = 0;
};

// Checks that j is a non-empty rectangular array of arrays within the limits.
// `cells` names what a row holds ("numbers" or "flags") in messages.
GridShape check_grid(const json& j, const std::string& path, long long max_rows,
                     long long max_cols, const char* cells) {
  if (!j.is_array()) {
    fail(path, std::string("expected an array of rows of ") + cells + ", got " + describe(j));
  }
  check_count(static_cast<long long>(j.size()), 1, max_rows, path, "rows");
  GridShape shape;
  shape.rows = static_cast<Eigen::Index>(j.size());
  for (std::size_t r = 0; r < j.size(); ++r) {
    const json& row = j[r];
    const std::string row_path = path_index(path, r);
    if (!row.is_array()) {
      fail(row_path, std::string("expected a row (an array of ") + cells + "), got " +
                         describe(row));
    }
    if (r == 0) {
      check_count(static_cast<long long>(row.size()), 1, max_cols, row_path, cells);
      shape.cols = static_cast<Eigen::Index>(row.size());
    } else if (static_cast<Eigen::Index>(row.size()) != shape.cols) {
      fail(row_path, "row has " + std::to_string(row.size()) + " " + cells + ", expected " +
                         std::to_string(shape.cols) + " like row 0");
    }
  }
  return shape;
}

// Entry i of the array at `parent`: its path is spelled out only for a
// message (a 2048-token scene has millions of entries, and building each
// one's path took longer than reading its number).
double read_number(const json& v, const std::string& parent, std::size_t i) {
  if (!v.is_number()) fail(path_index(parent, i), "expected a number, got " + describe(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(path_index(parent, i), "not finite");
  return d;
}

bool read_flag(const json& v, const std::string& parent, std::size_t i) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer() || v.is_number_unsigned()) {
    const auto n = v.get<long long>();
    if (n == 0 || n == 1) return n == 1;
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == 0.0 || d == 1.0) return d == 1.0;
  }
  fail(path_index(parent, i), "expected 0, 1, true or false, got " + describe(v));
}

}  // namespace

Mat read_matrix(const json& j, const std::string& path, long long max_rows,
                long long max_cols) {
  const GridShape shape = check_grid(j, path, max_rows, max_cols, "numbers");
  Mat m(shape.rows, shape.cols);
  for (Eigen::Index r = 0; r < shape.rows; ++r) {
    const json& row = j[static_cast<std::size_t>(r)];
    const std::string row_path = path_index(path, static_cast<std::size_t>(r));
    for (Eigen::Index c = 0; c < shape.cols; ++c) {
      m(r, c) = read_number(row[static_cast<std::size_t>(c)], row_path, static_cast<std::size_t>(c));
    }
  }
  return m;
}

BoolMat read_flag_matrix(const json& j, const std::string& path, long long max_rows,
                         long long max_cols) {
  const GridShape shape = check_grid(j, path, max_rows, max_cols, "flags");
  BoolMat m(shape.rows, shape.cols);
  for (Eigen::Index r = 0; r < shape.rows; ++r) {
    const json& row = j[static_cast<std::size_t>(r)];
    const std::string row_path = path_index(path, static_cast<std::size_t>(r));
    for (Eigen::Index c = 0; c < shape.cols; ++c) {
      m(r, c) = read_flag(row[static_cast<std::size_t>(c)], row_path, static_cast<std::size_t>(c));
    }
  }
  return m;
}

Vec read_vector(const json& j, const std::string& path, long long max_len) {
  if (!j.is_array()) fail(path, "expected an array of numbers, got " + describe(j));
  check_count(static_cast<long long>(j.size()), 1, max_len, path, "numbers");
  Vec v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) {
    v(static_cast<Eigen::Index>(i)) = read_number(j[i], path, i);
  }
  return v;
}

std::vector<bool> read_flags(const json& j, const std::string& path, long long max_len) {
  if (!j.is_array()) fail(path, "expected an array of true/false flags, got " + describe(j));
  check_count(static_cast<long long>(j.size()), 0, max_len, path, "flags");
  std::vector<bool> flags;
  flags.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) flags.push_back(read_flag(j[i], path, i));
  return flags;
}

std::vector<std::string> read_labels(const json& j, const std::string& path,
                                     long long max_len) {
  if (!j.is_array()) fail(path, "expected an array of strings, got " + describe(j));
  check_count(static_cast<long long>(j.size()), 0, max_len, path, "labels");
  std::vector<std::string> labels;
  labels.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) fail(path_index(path, i), "expected a string label, got " + describe(j[i]));
    const std::string& label = j[i].get_ref<const std::string&>();
    const std::size_t chars = code_points(label);
    if (chars > kMaxLabelChars)
      fail(path_index(path, i), "label of " + std::to_string(chars) + " characters is too long (labels are limited to " +
                                    std::to_string(kMaxLabelChars) + ")");
    labels.push_back(label);
  }
  return labels;
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string read_string(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "expected a string, got " + describe(j));
  return j.get<std::string>();
}

std::string list_choices(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += "\"" + names[i] + "\"";
  }
  return out;
}

void only_keys(const json& obj, const std::string& path, std::initializer_list<const char*> known) {
  const std::vector<std::string> names(known.begin(), known.end());
  for (const auto& item : obj.items()) {
    bool ok = false;
    for (const std::string& k : names) ok = ok || item.key() == k;
    if (!ok) fail(path_key(path, item.key()), "unknown key (expected " + list_choices(names) + ")");
  }
}

void throw_bad_choice(const json& j, const std::string& path,
                      const std::vector<std::string>& names) {
  if (j.is_string()) {
    fail(path, "unknown value " + quoted_excerpt(j.get_ref<const std::string&>()) + " (expected " + list_choices(names) + ")");
  }
  fail(path, "expected " + list_choices(names) + ", got " + describe(j));
}

int read_int(const nlohmann::json& j, const std::string& path, int lo, int hi) {
  if (!j.is_number_integer() && !j.is_number_unsigned() &&
      !(j.is_number_float() && std::floor(j.get<double>()) == j.get<double>()))
    throw FormatError(path + ": expected a whole number, got " + describe(j));
  const double v = j.get<double>();
  if (v < lo || v > hi)
    throw FormatError(path + ": expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                      ", got " + j.dump());
  return static_cast<int>(v);
}

double read_number(const nlohmann::json& j, const std::string& path) {
  if (!j.is_number() || !std::isfinite(j.get<double>())) throw FormatError(path + ": expected a number, got " + describe(j));
  return j.get<double>();
}

}  // namespace attn::io::detail
