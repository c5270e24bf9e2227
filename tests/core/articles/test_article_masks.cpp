// Scenes about masks and cross-attention: causal before vs after softmax
// (the mistake in the Q&A article), key padding, a custom mask, a decoder
// reading an encoder, image captioning over a grid, and the column softmax.
#include <doctest/doctest.h>

#include <cmath>

#include "scene_helpers.hpp"

using scene::load;
using scene::Loaded;

namespace {
constexpr double kTol = 1e-12;
}  // namespace

TEST_CASE("scene masking pair: -inf before softmax sums to 1, zeroing after does not") {
  const Loaded right = load("masking_causal"), wrong = load("masking_after_softmax");
  CHECK(right.scenario().x == wrong.scenario().x);
  REQUIRE(right.scenario().heads.size() == 1);
  CHECK(right.scenario().heads[0].w_q == wrong.scenario().heads[0].w_q);
  CHECK(right.scenario().mask == attn::MaskKind::Causal);
  CHECK(wrong.scenario().mask == attn::MaskKind::Causal);
  CHECK(right.scenario().mask_mode == attn::MaskMode::BeforeSoftmax);
  CHECK(wrong.scenario().mask_mode == attn::MaskMode::AfterSoftmax);
  CHECK_FALSE(right.has(attn::StageKind::softmax, 0));
  REQUIRE(wrong.has(attn::StageKind::softmax, 0));

  const attn::Mat& good = right.at(attn::StageKind::weights, 0);
  const attn::Mat& bad = wrong.at(attn::StageKind::weights, 0);
  const attn::Mat& unmasked = wrong.at(attn::StageKind::softmax, 0);
  const int n = static_cast<int>(good.rows());
  for (int i = 0; i < n; ++i) {
    INFO("row " << i);
    CHECK(std::abs(good.row(i).sum() - 1.0) <= kTol);
    if (i + 1 < n) CHECK(bad.row(i).sum() < 1.0 - 1e-3);
    else CHECK(std::abs(bad.row(i).sum() - 1.0) <= kTol);
    for (int j = 0; j < n; ++j) {
      if (j > i) {
        CHECK(good(i, j) == 0.0);
        CHECK(bad(i, j) == 0.0);
        CHECK(unmasked(i, j) > 0.0);
      } else {
        CHECK(bad(i, j) == unmasked(i, j));
      }
    }
  }
  // The masked logits: -inf in the correct version, untouched in the other.
  CHECK(std::isinf(right.at(attn::StageKind::masked, 0)(0, 1)));
  CHECK(std::isfinite(wrong.at(attn::StageKind::masked, 0)(0, 1)));
}

TEST_CASE("scene padding_mask: padded keys get zero weight from every query") {
  const Loaded l = load("padding_mask");
  const auto& pad = l.scenario().key_padding;
  REQUIRE(pad.size() == l.scenario().tokens.size());
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  for (int i = 0; i < w.rows(); ++i) {
    CHECK(std::abs(w.row(i).sum() - 1.0) <= kTol);
    for (int j = 0; j < w.cols(); ++j)
      if (pad[static_cast<size_t>(j)]) CHECK(w(i, j) == 0.0);
      else CHECK(w(i, j) > 0.0);
  }
}

TEST_CASE("scene custom_mask: blocked cells are zero, the rest of each row sums to 1") {
  const Loaded l = load("custom_mask");
  REQUIRE(l.scenario().mask == attn::MaskKind::Custom);
  const attn::BoolMat& m = l.scenario().custom_mask;
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  REQUIRE(m.rows() == w.rows());
  REQUIRE(m.cols() == w.cols());
  for (int i = 0; i < w.rows(); ++i) {
    CHECK(std::abs(w.row(i).sum() - 1.0) <= kTol);
    for (int j = 0; j < w.cols(); ++j) CHECK((w(i, j) == 0.0) == m(i, j));
  }
}

TEST_CASE("scene cross_attention: weights n_q x n_k with n_k != n_q, d_ctx != d_model") {
  const Loaded l = load("cross_attention");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.is_cross());
  const int n_q = static_cast<int>(s.x.rows()), n_k = static_cast<int>(s.context->rows());
  CHECK(n_q != n_k);
  CHECK(s.x.cols() != s.context->cols());
  CHECK(l.has(attn::StageKind::context));
  CHECK(l.at(attn::StageKind::weights, 0).rows() == n_q);
  CHECK(l.at(attn::StageKind::weights, 0).cols() == n_k);
  CHECK(l.at(attn::StageKind::k, 0).rows() == n_k);
  CHECK(l.at(attn::StageKind::output).rows() == n_q);
  CHECK(s.context_tokens.size() == static_cast<size_t>(n_k));
}

TEST_CASE("scene image_captioning: each word attends over a flattened 3x3 grid") {
  const Loaded l = load("image_captioning");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.is_cross());
  CHECK(s.context->rows() == 9);
  CHECK(s.context_tokens.size() == 9);
  CHECK(s.softmax_axis == attn::SoftmaxAxis::Keys);
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  for (int i = 0; i < w.rows(); ++i) CHECK(std::abs(w.row(i).sum() - 1.0) <= kTol);
  const int surfer_word = l.token_index("surfer"), wave_word = l.token_index("wave");
  REQUIRE(surfer_word >= 0);
  REQUIRE(wave_word >= 0);
  CHECK(s.context_tokens[static_cast<size_t>(scene::argmax_in_row(w, surfer_word))].rfind("surfer", 0) == 0);
  CHECK(s.context_tokens[static_cast<size_t>(scene::argmax_in_row(w, wave_word))].rfind("wave", 0) == 0);
}

TEST_CASE("scene softmax_columns: every column of weights sums to 1") {
  const Loaded l = load("softmax_columns");
  CHECK(l.scenario().softmax_axis == attn::SoftmaxAxis::Queries);
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  bool some_row_off = false;
  for (int j = 0; j < w.cols(); ++j) CHECK(std::abs(w.col(j).sum() - 1.0) <= kTol);
  for (int i = 0; i < w.rows(); ++i) some_row_off = some_row_off || std::abs(w.row(i).sum() - 1.0) > 1e-3;
  CHECK(some_row_off);  // rows are not normalised in this convention
}
