// Scenes from the first article ("Attention", annotated and animated): the
// default lesson, the RGB-D pixels with and without W_Q/W_K/W_V, the
// user/movie dot product, 2x4 multi-head, Mary/Susan and animal/it.
// Each test checks the shapes and the property the scene exists to show.
#include <doctest/doctest.h>

#include <cmath>

#include "scene_helpers.hpp"

using scene::load;
using scene::Loaded;

namespace {
constexpr double kTol = 1e-12;

void check_shape(const attn::Mat& m, int rows, int cols) {
  CHECK(m.rows() == rows);
  CHECK(m.cols() == cols);
}
}  // namespace

TEST_CASE("scene default: 4 tokens, d_model 4, one 4x3 head, sqrt_dk, causal, every stage") {
  const Loaded l = load("default");
  const attn::Scenario& s = l.scenario();
  CHECK(s.tokens.size() == 4);
  check_shape(s.x, 4, 4);
  REQUIRE(s.heads.size() == 1);
  check_shape(s.heads[0].w_q, 4, 3);
  check_shape(s.heads[0].w_k, 4, 3);
  check_shape(s.heads[0].w_v, 4, 3);
  CHECK(s.scale == attn::ScaleMode::SqrtDk);
  CHECK(s.mask == attn::MaskKind::Causal);
  using K = attn::StageKind;
  for (K id : {K::w_q, K::w_k, K::w_v, K::q, K::k, K::v, K::scores, K::scaled, K::masked, K::weights, K::head_output})
    CHECK_MESSAGE(l.has(id, 0), attn::to_string(id));
  for (K id : {K::x, K::concat, K::output}) CHECK_MESSAGE(l.has(id), attn::to_string(id));
  const attn::Mat w = l.at(attn::StageKind::weights, 0);
  CHECK(w(0, 0) == 1.0);  // the first word can only see itself
  for (int i = 0; i < 4; ++i) CHECK(std::abs(w.row(i).sum() - 1.0) <= kTol);
}

TEST_CASE("scene rgbd_pixels: 3 pixels x 4 features, no parameters, soft weights") {
  const Loaded l = load("rgbd_pixels");
  const attn::Scenario& s = l.scenario();
  check_shape(s.x, 3, 4);
  CHECK(s.heads.empty());
  CHECK(s.scale == attn::ScaleMode::None);
  CHECK(s.x.minCoeff() >= 0.0);
  CHECK(s.x.maxCoeff() <= 1.0);
  // Scores are the raw dot products x_i . x_j.
  CHECK((l.at(attn::StageKind::scores, 0) - s.x * s.x.transpose()).cwiseAbs().maxCoeff() <= kTol);
  const attn::Mat w = l.at(attn::StageKind::weights, 0);
  CHECK(w.maxCoeff() < 0.9);  // not one-hot: every pixel contributes
  CHECK(w.minCoeff() > 0.05);
  // Each output is the weighted average of the pixels themselves.
  CHECK((l.at(attn::StageKind::output) - w * s.x).cwiseAbs().maxCoeff() <= kTol);
}

TEST_CASE("scene user_movie: one user query against three movies") {
  const Loaded l = load("user_movie");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.is_cross());
  check_shape(s.x, 1, 3);
  check_shape(*s.context, 3, 3);
  const attn::Mat& scores = l.at(attn::StageKind::scores, 0);
  check_shape(scores, 1, 3);
  const int drama = l.context_index("quiet drama"), action = l.context_index("action blockbuster");
  REQUIRE(drama >= 0);
  REQUIRE(action >= 0);
  // Dislike of action times little action is a positive contribution.
  CHECK(s.x(0, 0) < 0);
  CHECK((*s.context)(drama, 0) < 0);
  CHECK(s.x(0, 0) * (*s.context)(drama, 0) > 0);
  CHECK(scene::argmax_in_row(l.at(attn::StageKind::weights, 0), 0) != action);
  CHECK(l.at(attn::StageKind::weights, 0)(0, action) < 0.2);
}

TEST_CASE("scene qkv_pixels: the same pixels through 4x3 W_Q, W_K, W_V") {
  const Loaded plain = load("rgbd_pixels"), l = load("qkv_pixels");
  CHECK(l.scenario().x == plain.scenario().x);
  REQUIRE(l.scenario().heads.size() == 1);
  check_shape(l.scenario().heads[0].w_q, 4, 3);
  check_shape(l.scenario().heads[0].w_k, 4, 3);
  check_shape(l.scenario().heads[0].w_v, 4, 3);
  check_shape(l.at(attn::StageKind::q, 0), 3, 3);
  check_shape(l.at(attn::StageKind::output), 3, 3);
}

TEST_CASE("scene multihead_2x4: X 2x4, two 4x3 heads, concat 2x6, W_O 6x3, output 2x3") {
  const Loaded l = load("multihead_2x4");
  check_shape(l.scenario().x, 2, 4);
  REQUIRE(l.scenario().heads.size() == 2);
  for (int h = 0; h < 2; ++h) {
    check_shape(l.at(attn::StageKind::w_q, h), 4, 3);
    check_shape(l.at(attn::StageKind::w_k, h), 4, 3);
    check_shape(l.at(attn::StageKind::w_v, h), 4, 3);
    check_shape(l.at(attn::StageKind::weights, h), 2, 2);
    check_shape(l.at(attn::StageKind::head_output, h), 2, 3);
  }
  check_shape(l.at(attn::StageKind::concat), 2, 6);
  check_shape(l.at(attn::StageKind::w_o), 6, 3);
  check_shape(l.at(attn::StageKind::output), 2, 3);
  CHECK((l.at(attn::StageKind::concat).leftCols(3) - l.at(attn::StageKind::head_output, 0)).cwiseAbs().maxCoeff() == 0.0);
  CHECK((l.at(attn::StageKind::concat).rightCols(3) - l.at(attn::StageKind::head_output, 1)).cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("scene mary_gave_susan + permuted twin: outputs are permuted with the tokens") {
  const Loaded a = load("mary_gave_susan"), b = load("mary_gave_susan_permuted");
  REQUIRE(a.scenario().tokens.size() == b.scenario().tokens.size());
  CHECK(a.scenario().tokens != b.scenario().tokens);
  CHECK(a.scenario().positional == attn::Positional::None);
  CHECK(a.scenario().mask == attn::MaskKind::None);
  for (size_t i = 0; i < a.scenario().tokens.size(); ++i) {
    const std::string& word = a.scenario().tokens[i];
    const int j = b.token_index(word);
    REQUIRE(j >= 0);
    INFO(word);
    CHECK((a.at(attn::StageKind::output).row(static_cast<int>(i)) - b.at(attn::StageKind::output).row(j)).cwiseAbs().maxCoeff() <= kTol);
  }
  // 'gave' can barely tell the two names apart.
  const int gave = a.token_index("gave");
  const attn::Mat& w = a.at(attn::StageKind::weights, 0);
  CHECK(std::abs(w(gave, a.token_index("Mary")) - w(gave, a.token_index("Susan"))) < 0.02);
}

TEST_CASE("scene animal_it: two heads read 'it' two ways, one head splits") {
  const Loaded two = load("animal_it_two_heads");
  const int it = two.token_index("it"), animal = two.token_index("animal"), road = two.token_index("road");
  REQUIRE(it >= 0);
  REQUIRE(two.scenario().heads.size() == 2);
  CHECK(scene::argmax_in_row(two.at(attn::StageKind::weights, 0), it) == animal);
  CHECK(scene::argmax_in_row(two.at(attn::StageKind::weights, 1), it) == road);
  CHECK(scene::argmax_in_row(two.at(attn::StageKind::weights, 0), it) != scene::argmax_in_row(two.at(attn::StageKind::weights, 1), it));

  const Loaded one = load("animal_it_one_head");
  REQUIRE(one.scenario().heads.size() == 1);
  const attn::Mat& w = one.at(attn::StageKind::weights, 0);
  CHECK(std::abs(w(it, animal) - w(it, road)) < 0.05);
  for (int j = 0; j < w.cols(); ++j)
    if (j != animal && j != road) CHECK(w(it, j) < std::min(w(it, animal), w(it, road)));
}

TEST_CASE("scene temperature: dividing by tau = 2 flattens the weights") {
  const Loaded l = load("temperature");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.scale == attn::ScaleMode::Temperature);
  CHECK(s.temperature == 2.0);
  CHECK((l.at(attn::StageKind::scaled, 0) - l.at(attn::StageKind::scores, 0) / 2.0).cwiseAbs().maxCoeff() <= kTol);
  attn::Scenario untempered = s;
  untempered.scale = attn::ScaleMode::None;
  const attn::Trace sharp = attn::compute_trace(untempered);
  const attn::Mat w = l.at(attn::StageKind::weights, 0);
  const attn::Mat w1 = sharp.find(attn::StageKind::weights, 0)->value.dense();
  for (int i = 0; i < w.rows(); ++i) CHECK(w.row(i).maxCoeff() < w1.row(i).maxCoeff());
}
