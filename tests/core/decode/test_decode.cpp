// The KV-cache decode loop held to the full trace: step t's head outputs
// and output equal row t of compute_trace's, and its caches hold exactly
// rows 0..t of the trace's K (rotated with RoPE) and V, for every option
// the decoder supports (decode_cases.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "attn/decode/decode.hpp"
#include "attn/compute/trace.hpp"
#include "decode/decode_cases.hpp"

namespace {

using attn::StageKind;

// Both sides compute the same sums in a different order (a 1-row product
// against the trace's blocked matrix product, an exp per cell against the
// softmax's vector exp): they agree to a few ulps of values near 1.
constexpr double kDecodeTol = 1e-12;

struct DecodeWorst {
  double diff = -1;
  std::string where;
  void see(double a, double b, const std::string& at) {
    const double d = std::abs(a - b);
    if (d > diff || std::isnan(d)) {
      std::ostringstream os;
      os.precision(17);
      os << at << ": decoded " << a << ", full trace " << b;
      diff = std::isnan(d) ? INFINITY : d, where = os.str();
    }
  }
};

std::string where(const char* what, int t, int h, int r, int c) {
  return std::string(what) + " step " + std::to_string(t) + " head " + std::to_string(h) + " row " + std::to_string(r) +
         " col " + std::to_string(c);
}

// K and V of a key/value head as the trace keeps them: at the group's first
// head, rotated with RoPE.
const attn::Stage& trace_keys(const attn::Trace& full, int leader) {
  const attn::Stage* k = full.find(StageKind::k_rope, leader);
  return k ? *k : *full.find(StageKind::k, leader);
}

}  // namespace

TEST_CASE("decode: every step's head outputs and output equal the full trace's row t (to 1e-12)") {
  for (const decode_test::Case& c : decode_test::decodable_cases()) {
    CAPTURE(c.name);
    const attn::Trace full = attn::compute_trace(c.s);
    const attn::DecodeTrace dec = attn::compute_decode(c.s);
    REQUIRE(dec.steps.size() == static_cast<size_t>(full.dims.n_q));
    DecodeWorst worst;
    for (const attn::DecodeStep& step : dec.steps) {
      const int t = step.t;
      for (int h = 0; h < full.dims.n_heads; ++h) {
        const attn::StageValues& z = step.find(StageKind::step_head_output, h)->value;
        const attn::StageValues& z_full = full.find(StageKind::head_output, h)->value;
        for (int col = 0; col < full.dims.d_v; ++col)
          worst.see(z(0, col), z_full(t, col), where("head_output", t, h, 0, col));
        const attn::StageValues& a = step.find(StageKind::step_weights, h)->value;
        const attn::StageValues& a_full = full.find(StageKind::weights, h)->value;
        for (int j = 0; j < full.dims.n_k; ++j)
          worst.see(j <= t ? a(0, j) : 0.0, a_full(t, j), where("weights", t, h, 0, j));
      }
      const attn::StageValues& y = step.find(StageKind::step_output)->value;
      const attn::StageValues& y_full = full.find(StageKind::output)->value;
      REQUIRE(y.cols() == y_full.cols());
      for (int col = 0; col < y.cols(); ++col) worst.see(y(0, col), y_full(t, col), where("output", t, -1, 0, col));
    }
    INFO("worst: " << worst.where);
    CHECK(worst.diff <= kDecodeTol);
  }
}

TEST_CASE("decode: after step t each cache holds rows 0..t of the trace's K (rotated) and V, row t new") {
  for (const decode_test::Case& c : decode_test::decodable_cases()) {
    CAPTURE(c.name);
    const attn::Trace full = attn::compute_trace(c.s);
    const attn::DecodeTrace dec = attn::compute_decode(c.s);
    DecodeWorst worst;
    for (const attn::DecodeStep& step : dec.steps) {
      const int t = step.t;
      CHECK(step.new_row == t);
      CHECK(step.cache.tokens == t + 1);
      CHECK(step.cache.k.size() == static_cast<size_t>(full.dims.n_kv_heads));
      for (int h = 0; h < full.dims.n_heads; ++h) {
        const bool leader = !full.dims.shares_kv(h);
        // A head that shares its group's cache has none of its own.
        CHECK((step.find(StageKind::k_cache, h) != nullptr) == leader);
        if (!leader) continue;
        const attn::Mat& k = step.find(StageKind::k_cache, h)->value.stored();
        const attn::Mat& v = step.find(StageKind::v_cache, h)->value.stored();
        // The stage is the cache the next step reads, not a copy of it.
        CHECK(&k == step.cache.k[static_cast<size_t>(full.dims.kv_index(h))].get());
        REQUIRE(k.rows() == t + 1);
        REQUIRE(v.rows() == t + 1);
        const attn::StageValues& k_full = trace_keys(full, h).value;
        const attn::StageValues& v_full = full.find(StageKind::v, h)->value;
        for (int r = 0; r <= t; ++r) {
          for (int col = 0; col < k.cols(); ++col) worst.see(k(r, col), k_full(r, col), where("K cache", t, h, r, col));
          for (int col = 0; col < v.cols(); ++col) worst.see(v(r, col), v_full(r, col), where("V cache", t, h, r, col));
        }
        // Rows before t are the previous step's, bit for bit: reused, not recomputed.
        if (t > 0) {
          const attn::Mat& before = dec.steps[static_cast<size_t>(t - 1)].find(StageKind::k_cache, h)->value.stored();
          CHECK(k.topRows(t) == before);
        }
        const attn::Mat& k_new = step.find(StageKind::step_k, h)->value.stored();
        CHECK(k.row(t) == k_new.row(0));
      }
    }
    INFO("worst: " << worst.where);
    CHECK(worst.diff <= kDecodeTol);
  }
}

TEST_CASE("decode: each step's stages have the table's shape, with the cache's t + 1 rows") {
  for (const decode_test::Case& c : decode_test::decodable_cases()) {
    CAPTURE(c.name);
    const attn::DecodeTrace dec = attn::compute_decode(c.s);
    for (const attn::DecodeStep& step : dec.steps) {
      for (const attn::Stage& st : step.stages) {
        const attn::StageInfo& info = attn::info_of(st.id);
        CAPTURE(std::string(info.name));
        auto extent = [&](attn::Extent e) {
          return e == attn::Extent::cached ? step.t + 1 : attn::extent_of(e, dec.dims);
        };
        CHECK(st.value.rows() == extent(info.rows));
        CHECK(st.value.cols() == extent(info.cols));
        CHECK(info.per_head == (st.head >= 0));
        CHECK(st.row_labels.size() == static_cast<size_t>(st.value.rows()));
        CHECK(st.col_labels.size() == static_cast<size_t>(st.value.cols()));
      }
    }
  }
}

TEST_CASE("decode: decode_step one token at a time equals compute_decode, and stops where asked") {
  const decode_test::Case c = decode_test::decodable_cases().back();
  const attn::DecodeTrace all = attn::compute_decode(c.s);
  attn::DecodeCache cache;
  for (const attn::DecodeStep& expected : all.steps) {
    const attn::DecodeStep step = attn::decode_step(c.s, cache);
    CHECK(step.t == expected.t);
    REQUIRE(step.stages.size() == expected.stages.size());
    for (size_t i = 0; i < step.stages.size(); ++i)
      CHECK(step.stages[i].value.dense() == expected.stages[i].value.dense());
    cache = step.cache;
  }
  CHECK(attn::compute_decode(c.s, 3).steps.size() == 3);
}
