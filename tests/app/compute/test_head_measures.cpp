// The Model view's per-head numbers and role rules on hand-made attention
// matrices, the thumbnails and atlas drawn from them, and the ids-only text
// step, all without a model or a window.
#include <doctest/doctest.h>

#include "model/hf/head_atlas.hpp"
#include "model/hf/head_measures.hpp"
#include "model/hf/model_tokens.hpp"

namespace {

using Mat = attn::hf::MatX<float>;

// Causal weights where every query i >= 1 gives `to` its weight p and spreads
// the rest evenly over the other keys it sees.
Mat causal_pattern(int n, int (*to)(int), float p) {
  Mat w = Mat::Zero(n, n);
  w(0, 0) = 1;
  for (int i = 1; i < n; ++i) {
    const int k = to(i);
    for (int j = 0; j <= i; ++j) w(i, j) = j == k ? p : (1 - p) / static_cast<float>(i);
  }
  return w;
}

Mat causal_uniform(int n) {
  Mat w = Mat::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) w(i, j) = 1.0f / static_cast<float>(i + 1);
  return w;
}

}  // namespace

TEST_CASE("a previous-token head: its measure and its role") {
  const Mat w = causal_pattern(8, [](int i) { return i - 1; }, 0.9f);
  const model::HeadMeasures m = model::measure_head(w);
  CHECK(m.previous == doctest::Approx(0.9));
  CHECK(m.previous > m.first);
  CHECK(model::head_role(m) == "mostly attends to the previous token");
}

TEST_CASE("a first-token head and a self head") {
  const model::HeadMeasures first = model::measure_head(causal_pattern(8, [](int) { return 0; }, 0.8f));
  CHECK(first.first == doctest::Approx(0.8));
  CHECK(model::head_role(first) == "mostly attends to the first token");
  const model::HeadMeasures self = model::measure_head(causal_pattern(8, [](int i) { return i; }, 0.7f));
  CHECK(self.self == doctest::Approx(0.7));
  CHECK(model::head_role(self) == "mostly attends to itself");
}

TEST_CASE("a head that spreads evenly: entropy at its largest, no other role") {
  const int n = 6;
  const model::HeadMeasures m = model::measure_head(causal_uniform(n));
  double expected = 0;
  for (int i = 0; i < n; ++i) expected += std::log(static_cast<double>(i + 1));
  CHECK(m.entropy == doctest::Approx(expected / n));
  CHECK(m.evenness == doctest::Approx(1.0));
  CHECK(model::head_role(m) == "spreads its attention evenly");
}

TEST_CASE("no simple role: a head split between the previous and the first token") {
  const int n = 8;
  Mat w = Mat::Zero(n, n);
  w(0, 0) = 1;
  for (int i = 1; i < n; ++i) {
    w(i, 0) += 0.4f;
    w(i, i - 1) += 0.4f;
    const int others = i - 1 > 0 ? i - 1 : 1;  // the keys other than 0 and i - 1 (query 1: itself)
    for (int j = 1; j <= i; ++j)
      if (j != i - 1 || i == 1) w(i, j) += 0.2f / static_cast<float>(others);
  }
  const model::HeadMeasures m = model::measure_head(w);
  CHECK(m.previous == doctest::Approx((0.8 + 6 * 0.4) / 7));  // query 1's previous token is the first
  CHECK(m.first == doctest::Approx(m.previous));
  CHECK(m.evenness < 0.9);
  CHECK(model::head_role(m).empty());
  CHECK(model::measure_value(m, model::HeadMeasure::First) == m.first);
}

TEST_CASE("one token: the measures are those of query 0") {
  Mat w(1, 1);
  w(0, 0) = 1;
  const model::HeadMeasures m = model::measure_head(w);
  CHECK(m.previous == 0);
  CHECK(m.self == 1);
  CHECK(m.entropy == 0);
}

TEST_CASE("a thumbnail averages blocks and marks blocks that are all masked") {
  const Mat w = causal_uniform(128);
  const model::Thumbnail t = model::make_thumbnail(w, 64);
  REQUIRE(t.side == 64);
  // Block (0, 0) covers rows 0-1 and keys 0-1: 1, 0 (masked), 1/2, 1/2.
  CHECK(t.values[0] == doctest::Approx(0.5));
  CHECK(!t.masked[0]);
  CHECK(t.masked[1]);  // rows 0-1, keys 2-3: all above the diagonal
  CHECK(!t.masked[64 + 1]);
  const model::Thumbnail small = model::make_thumbnail(causal_uniform(5), 64);
  CHECK(small.side == 5);  // never enlarged
  CHECK(small.max == doctest::Approx(1.0));
}

TEST_CASE("the atlas puts head h of layer l at (h * tile, l * tile), not transposed") {
  std::vector<std::vector<model::Thumbnail>> thumbs(2);
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 3; ++h) thumbs[static_cast<size_t>(l)].push_back(model::make_thumbnail(causal_uniform(4)));
  const model::HeadAtlas a = model::build_atlas(thumbs, model::colourmap(model::ColourmapId::Grayscale));
  CHECK(a.tile == 4);
  CHECK(a.width == 12);
  CHECK(a.height == 8);
  REQUIRE(a.rgba.size() == 12u * 8u * 4u);
  // Row 0, key 0 has weight 1 (black in grayscale); row 0, key 3 is masked (grey).
  const auto px = [&](int x, int y) { return a.rgba[(static_cast<size_t>(y) * 12 + static_cast<size_t>(x)) * 4]; };
  CHECK(px(4, 4) < 30);
  CHECK(px(4 + 3, 4) == model::kMaskedGrey);
}

TEST_CASE("a folder without a tokenizer reads its text as token ids") {
  const auto tokens = model::ModelTokens::load("/nonexistent");
  CHECK(tokens->encode("15496, 11,995") == std::vector<int>{15496, 11, 995});
  CHECK(tokens->text(11) == "#11");
  CHECK_THROWS_AS(tokens->encode("Hello"), std::runtime_error);
  CHECK_THROWS_AS(tokens->encode(" , "), std::runtime_error);
}
