// One stage's numbers as files for other tools: CSV for spreadsheets and
// NumPy .npy for notebooks (the whole trace goes out as trace_to_json).
// Values round-trip exactly: CSV holds the shortest decimal that reads back
// to the same double (at most 17 significant digits), .npy the raw doubles.
#pragma once

#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace attn::io {

// A stage's numbers as a dense (rows, cols) matrix. Every export reads a
// stage through here, so how a trace stores its values stays one detail.
Mat stage_matrix(const Stage& stage);

// RFC 4180 CSV: a header row (an empty corner, then the column labels), then
// one row per matrix row (its label, then the values). Masked logits are
// written as -inf, which Python's float(), NumPy and spreadsheets read.
std::string matrix_to_csv(const Mat& m, const std::vector<std::string>& row_labels,
                          const std::vector<std::string>& col_labels);

// NPY format version 1.0: magic, a header dict {'descr': '<f8',
// 'fortran_order': False, 'shape': (rows, cols), } padded with spaces to a
// multiple of 64 bytes, then the float64 values in C (row-major) order.
// -inf stays -inf.
std::string matrix_to_npy(const Mat& m);

// Writes `stage` to `path` in the format its extension names (.csv, .npy).
// Throws FormatError naming the extension when it is neither, or the OS
// reason when the file cannot be written.
void write_stage_file(const std::string& path, const Stage& stage);

}  // namespace attn::io
