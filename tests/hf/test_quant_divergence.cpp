// What quantization does to each head (attn/hf/quant/quant_divergence.hpp):
// zero against itself, the Jensen-Shannon divergence of every head's rows
// against an independent formula (entropy of the mixture less the mean
// entropy), within [0, 1] bits, and a refusal for two different models.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/quant/quant_divergence.hpp"

using namespace attn::hf;

namespace {

const std::string kDir = std::string(ATTN_HF_DATA_DIR) + "/../gguf/";

// H(m) - (H(p) + H(q)) / 2, in bits, in long double.
double js_by_entropy(const AttentionMap<double>& p, const AttentionMap<double>& q, Eigen::Index row) {
  const auto h = [](long double x) { return x > 0 ? -x * std::log(x) : 0.0L; };
  long double hm = 0, hp = 0, hq = 0;
  for (Eigen::Index c = 0; c < p.cols(); ++c) {
    hm += h((static_cast<long double>(p(row, c)) + q(row, c)) / 2);
    hp += h(p(row, c));
    hq += h(q(row, c));
  }
  return static_cast<double>((hm - (hp + hq) / 2) / std::log(2.0L));
}

std::vector<int> ids16() {
  std::vector<int> ids;
  for (int i = 0; i < 16; ++i) ids.push_back((i * 37 + 11) % 320);
  return ids;
}

}  // namespace

TEST_CASE("quant divergence: Q4_K_M against F16, every head's worst row as an independent formula gives it") {
  const auto q = Checkpoint::open(kDir + "wide_q4_k.gguf");
  const auto f = Checkpoint::open(kDir + "wide_f16.gguf");
  const std::vector<int> ids = ids16();
  const QuantDivergence d = quant_divergence(*q, *f, ids);
  REQUIRE(d.heads.size() == 8u);
  const ForwardResult<double> rq = run_forward<double>(*q, ids), rf = run_forward<double>(*f, ids);
  double largest = 0;
  for (const HeadDivergence& h : d.heads) {
    CAPTURE(h.layer);
    CAPTURE(h.head);
    CHECK(h.mean >= 0);
    CHECK(h.mean <= h.worst);
    CHECK(h.worst <= 1.0);
    const AttentionMap<double>& p = rq.layers[static_cast<std::size_t>(h.layer)].attentions[static_cast<std::size_t>(h.head)];
    const AttentionMap<double>& r = rf.layers[static_cast<std::size_t>(h.layer)].attentions[static_cast<std::size_t>(h.head)];
    CHECK(h.worst == doctest::Approx(js_by_entropy(p, r, h.worst_row)).epsilon(1e-9));
    for (Eigen::Index row = 0; row < p.rows(); ++row) CHECK(js_by_entropy(p, r, row) <= h.worst + 1e-12);
    largest = std::max(largest, h.worst);
  }
  MESSAGE("Q4_K_M against F16: the most moved row is " << largest << " bits");
  CHECK(largest > 1e-4);
}

TEST_CASE("quant divergence: a model against itself moves nothing, and two different models are refused") {
  const auto f = Checkpoint::open(kDir + "wide_f16.gguf");
  const QuantDivergence same = quant_divergence(*f, *f, ids16());
  for (const HeadDivergence& h : same.heads) CHECK(h.worst == 0.0);
  const auto other = Checkpoint::open(kDir + "llama_f32.gguf");
  CHECK_THROWS_AS(quant_divergence(*f, *other, {1, 2, 3}), ModelError);
}
