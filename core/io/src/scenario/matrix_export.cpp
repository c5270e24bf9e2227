// CSV and .npy writers for one stage. Plain byte strings, written atomically
// like every other file attnviz saves.
#include "attn/io/matrix_export.hpp"

#include <charconv>
#include <cstring>

#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"

namespace attn::io {
namespace {

// Quotes a field when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

// Shortest text that parses back to exactly `v` ("-inf" for masked logits).
std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string extension_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

}  // namespace

Mat stage_matrix(const Stage& stage) { return stage.value.dense(); }

std::string matrix_to_csv(const Mat& m, const std::vector<std::string>& row_labels,
                          const std::vector<std::string>& col_labels) {
  std::string out;
  for (Eigen::Index c = 0; c < m.cols(); ++c)
    out += "," + csv_field(static_cast<size_t>(c) < col_labels.size() ? col_labels[static_cast<size_t>(c)] : std::to_string(c));
  out += "\r\n";
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    out += csv_field(static_cast<size_t>(r) < row_labels.size() ? row_labels[static_cast<size_t>(r)] : std::to_string(r));
    for (Eigen::Index c = 0; c < m.cols(); ++c) out += "," + number_text(m(r, c));
    out += "\r\n";
  }
  return out;
}

std::string matrix_to_npy(const Mat& m) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the .npy writer stores '<f8' as the host's doubles");
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(m.rows()) + ", " +
                       std::to_string(m.cols()) + "), }";
  // magic (6) + version (2) + header length (2) + header, a multiple of 64, ending in '\n'.
  const size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  const size_t start = out.size();
  out.resize(start + static_cast<size_t>(m.size()) * sizeof(double));
  char* p = out.data() + start;
  for (Eigen::Index r = 0; r < m.rows(); ++r)  // Eigen is column-major; NPY here is C order
    for (Eigen::Index c = 0; c < m.cols(); ++c, p += sizeof(double)) {
      const double v = m(r, c);
      std::memcpy(p, &v, sizeof v);
    }
  return out;
}

void write_stage_file(const std::string& path, const Stage& stage) {
  const std::string ext = extension_of(path);
  std::string bytes;
  if (ext == ".csv") bytes = matrix_to_csv(stage_matrix(stage), stage.row_labels, stage.col_labels);
  else if (ext == ".npy") bytes = matrix_to_npy(stage_matrix(stage));
  else
    throw FormatError(path + ": unknown export format \"" + ext + "\" (use .csv or .npy)");
  write_text_atomically(path, bytes);
}

}  // namespace attn::io
