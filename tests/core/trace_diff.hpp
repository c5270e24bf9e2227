// Random scenes and a bit-for-bit comparison of two traces, shared by the
// tests of incremental, threaded and progressive recomputes: each compares
// its trace with one computed in one go, single-threaded.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace trace_diff {

using attn::Mat;

struct Rng {
  std::mt19937 g;
  explicit Rng(unsigned seed) : g(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); }
  double value() { return std::normal_distribution<double>(0, 1)(g); }
  Mat mat(int r, int c) {
    Mat m(r, c);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = value();
    return m;
  }
};

// A random small scene: every mask kind, both mask modes and softmax axes,
// ALiBi and cross-attention, one to three heads.
attn::Scenario random_scene(Rng& r);

// 600 tokens: big enough that heads go to threads (head_pool.cpp), with three
// row blocks of the products, the last one short (head_pool.hpp).
attn::Scenario threaded_scene(Rng& r, int heads, int d_k);

// Worst difference between two traces, with where it is, and any structural difference.
struct Diff {
  std::string structure;  // empty when ids, labels, masks and notes agree
  double exact_worst = 0;  // stages that must be bit-identical
  double rounding_worst = 0;  // head_output, concat, output
  std::string where;
};

// The worst element of every stage of `got` against `want`, and the first
// structural difference (ids, labels, masks, notes, softmax statistics).
// `may_round`: the stages allowed to differ by rounding.
Diff diff(const attn::Trace& got, const attn::Trace& want,
          const std::vector<std::string>& may_round = {"head_output", "concat", "output"});

// Every stage bit for bit (doctest CHECKs, with the worst element on failure).
void check_bit_identical(const attn::Trace& got, const attn::Trace& want);

}  // namespace trace_diff
