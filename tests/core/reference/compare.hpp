// Element-wise comparison of a core matrix against a reference matrix that
// reports the single worst element (where and both values), so a failing
// check says exactly which number went wrong instead of just "not equal".
#pragma once

#include <string>
#include <vector>

#include "attn/compute/trace.hpp"
#include "ref_matrix.hpp"
#include "reference.hpp"

namespace ref {

// Error of one element: |got - want| / max(1, |want|), i.e. absolute for
// numbers below 1 and relative above. Equal infinities count as 0; an
// infinity or NaN against anything else counts as +inf.
double element_error(double got, double want);

struct Worst {
  bool shape_ok = true;
  int got_rows = 0, got_cols = 0, want_rows = 0, want_cols = 0;
  int row = -1, col = -1;  // -1 when the matrices are empty or shapes differ
  double got = 0, want = 0;
  double error = 0;
};

Worst worst_element(const attn::Mat& got, const RMat& want);
inline Worst worst_element(const attn::StageValues& got, const RMat& want) { return worst_element(got.dense(), want); }
bool within(const Worst& w, double tol);
// e.g. "weights head 1: worst (2, 0): got 0.25 want 0.2500001 (error 4e-07)"
std::string describe(const std::string& what, const Worst& w);

// Compares every stage of the core trace with the reference: the two must
// hold the same (id, head) set, the same shapes, and every element within
// tol. Also checks the blocked flags of `masked`/`weights` and the
// fully-masked list of `weights` (before_softmax). Returns one message per
// problem; empty means the traces agree. When worst_seen is given, it is
// raised to the largest element error found (to report how much margin the
// tolerance has).
std::vector<std::string> compare_traces(const attn::Trace& got, const RefTrace& want, double tol,
                                        double* worst_seen = nullptr);

// True when any element of any stage is NaN.
bool has_nan(const attn::Trace& t);

}  // namespace ref
