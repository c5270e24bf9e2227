// One layer's multi-head attention (core/hf/src/forward/layer_attention.cpp)
// at lengths the checkpoint fixtures cannot reach (their models stop at 64
// positions, one block of queries): 300 tokens, three blocks of 128, 128
// and 44 queries, against plain loops written from the definition, in
// float64 to 1e-12 (absolute; weights in [0, 1], outputs of order 1). Causal,
// sliding window, bidirectional, grouped key/value heads, weights kept or
// not, heads switched off; and the same bits on one thread or two.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "random_matrix.hpp"
#include "forward/layer_attention.hpp"

using namespace attn::hf;
using attn::hf::detail::AttentionShape;

namespace {

struct Plain {
  std::vector<MatX<double>> weights;  // [head] (n, n)
  MatX<double> concat;
};

// The definition, one cell at a time: scores q·k / √hd over the keys a query
// may see, softmax over them, weights · V.
Plain plain_attention(const MatX<double>& q, const MatX<double>& k, const MatX<double>& v, const AttentionShape& s) {
  const int n = static_cast<int>(q.rows()), hd = s.head_dim, group = s.heads / s.kv_heads;
  Plain r;
  r.concat = MatX<double>::Zero(n, s.heads * hd);
  for (int h = 0; h < s.heads; ++h) {
    const int kv = h / group;
    MatX<double> w = MatX<double>::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      const int last = s.causal ? i : n - 1;
      const int first = s.window > 0 ? std::max(0, i - s.window + 1) : 0;
      double top = -INFINITY;
      for (int j = first; j <= last; ++j) {
        double dot = 0;
        for (int c = 0; c < hd; ++c) dot += q(i, h * hd + c) * k(j, kv * hd + c);
        w(i, j) = dot / std::sqrt(static_cast<double>(hd));
        top = std::max(top, w(i, j));
      }
      double sum = 0;
      for (int j = first; j <= last; ++j) sum += (w(i, j) = std::exp(w(i, j) - top));
      for (int j = first; j <= last; ++j) w(i, j) /= sum;
      for (int c = 0; c < hd; ++c) {
        double o = 0;
        for (int j = first; j <= last; ++j) o += w(i, j) * v(j, kv * hd + c);
        r.concat(i, h * hd + c) = o;
      }
    }
    r.weights.push_back(std::move(w));
  }
  return r;
}

// Largest |a - b|, with where, in the failure message.
template <class A, class B>
void check_close(const A& a, const B& b, const std::string& what, double tol) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  double worst = 0;
  Eigen::Index wi = 0, wj = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      if (const double d = std::abs(a(i, j) - b(i, j)); !(d <= worst)) worst = d, wi = i, wj = j;
  INFO(what << ": worst |ours - plain| = " << worst << " at [" << wi << "][" << wj << "]");
  CHECK(worst <= tol);
}

}  // namespace

TEST_CASE("layer attention: 300 tokens in blocks of queries equal the definition") {
  constexpr int n = 300, hd = 8;
  struct Case {
    const char* name;
    AttentionShape shape;
  };
  const Case cases[] = {{"causal", {4, 4, hd, true, 0}},
                        {"causal, window 50", {4, 4, hd, true, 50}},
                        {"bidirectional", {4, 4, hd, false, 0}},
                        {"grouped: 4 heads on 2 key/value heads, window 130", {4, 2, hd, true, 130}}};
  for (const Case& c : cases) {
    INFO(c.name);
    std::mt19937 rng(5);
    const MatX<double> q = random_matrix(n, c.shape.heads * hd, rng), k = random_matrix(n, c.shape.kv_heads * hd, rng),
                       v = random_matrix(n, c.shape.kv_heads * hd, rng);
    const Plain want = plain_attention(q, k, v, c.shape);
    const std::vector<bool> none(4, false);
    std::vector<AttentionMap<double>> weights;
    const MatX<double> got = detail::multi_head_attention(q, k, v, c.shape, none, AblationMode::Zero, true, weights, 2);
    check_close(got, want.concat, "head outputs", 1e-12);
    REQUIRE(weights.size() == 4);
    for (int h = 0; h < 4; ++h) check_close(weights[static_cast<size_t>(h)], want.weights[static_cast<size_t>(h)], "weights of head " + std::to_string(h), 1e-12);
    // Without the weights kept: the same outputs, bit for bit, on one thread.
    std::vector<AttentionMap<double>> unused;
    const MatX<double> alone = detail::multi_head_attention(q, k, v, c.shape, none, AblationMode::Zero, false, unused, 1);
    CHECK(unused.empty());
    CHECK((alone.array() == got.array()).all());
  }
}

TEST_CASE("layer attention: a head switched off is zero, or its mean over the text") {
  constexpr int n = 300, hd = 8;
  const AttentionShape shape{4, 4, hd, true, 0};
  std::mt19937 rng(9);
  const MatX<double> q = random_matrix(n, 4 * hd, rng), k = random_matrix(n, 4 * hd, rng), v = random_matrix(n, 4 * hd, rng);
  const Plain want = plain_attention(q, k, v, shape);
  std::vector<AttentionMap<double>> w;
  const std::vector<bool> off{false, false, true, false};
  const MatX<double> zero = detail::multi_head_attention(q, k, v, shape, off, AblationMode::Zero, false, w, 2);
  CHECK(zero.middleCols(2 * hd, hd).cwiseAbs().maxCoeff() == 0.0);
  check_close(zero.middleCols(1 * hd, hd), want.concat.middleCols(1 * hd, hd), "head 1 (on)", 1e-12);
  const MatX<double> mean = detail::multi_head_attention(q, k, v, shape, off, AblationMode::Mean, false, w, 2);
  const MatX<double> expected = want.concat.middleCols(2 * hd, hd).colwise().mean().replicate(n, 1);
  check_close(mean.middleCols(2 * hd, hd), expected, "head 2 (mean)", 1e-12);
}
