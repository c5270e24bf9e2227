// Every cell of every decode step explained: the explanation's last step
// gives the cell's own value (its arithmetic really makes the number), and
// a score cell says whether its key was reused from the cache or computed
// in this step.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/explain/decode_explain.hpp"
#include "decode/decode_cases.hpp"

namespace {

// Explanations redo sums in their own order (term by term): a few ulps.
constexpr double kExplainTol = 1e-12;

bool same_value(double explained, double cell) {
  if (std::isinf(cell)) return explained == cell;
  return std::abs(explained - cell) <= kExplainTol * std::max(1.0, std::abs(cell));
}

}  // namespace

TEST_CASE("decode explain: every cell's explanation ends at the cell's value") {
  int cells = 0;
  for (const decode_test::Case& c : decode_test::decodable_cases()) {
    CAPTURE(c.name);
    const attn::DecodeTrace dec = attn::compute_decode(c.s);
    for (const attn::DecodeStep& step : dec.steps)
      for (const attn::Stage& st : step.stages)
        for (int r = 0; r < st.value.rows(); ++r)
          for (int col = 0; col < st.value.cols(); ++col) {
            const attn::Explanation e = attn::explain_decode(step, c.s, st.ref(), r, col);
            const double cell = st.value(r, col);
            INFO("step " << step.t << " " << attn::to_string(st.id) << " head " << st.head << " [" << r << "," << col
                         << "]: cell " << cell << ", explained " << (e.steps.empty() ? NAN : e.steps.back().result)
                         << "\n"
                         << e.to_text());
            REQUIRE(!e.steps.empty());
            CHECK(e.value == st.value(r, col));
            CHECK(same_value(e.steps.back().result, cell));
            ++cells;
          }
  }
  CHECK(cells > 1000);
}

TEST_CASE("decode explain: a score names its key as reused from the cache or computed this step") {
  const decode_test::Case c = decode_test::decodable_cases().back();  // grouped-query heads too
  const attn::DecodeTrace dec = attn::compute_decode(c.s);
  const attn::DecodeStep& step = dec.steps.at(4);
  for (int j = 0; j <= 4; ++j) {
    CAPTURE(j);
    const attn::Explanation e = attn::explain_decode(step, c.s, {attn::StageKind::step_scores, 1}, 0, j);
    CHECK(e.note.find(j < 4 ? "reused from the cache (computed at step " + std::to_string(j) + ")"
                            : "computed this step") != std::string::npos);
    CHECK(e.note.find("reads the cache of head 0") != std::string::npos);
  }
  const attn::Explanation old_row = attn::explain_decode(step, c.s, {attn::StageKind::k_cache, 0}, 2, 1);
  CHECK(old_row.steps.at(0).title == "reused");
  const attn::Explanation new_row = attn::explain_decode(step, c.s, {attn::StageKind::k_cache, 0}, 4, 1);
  CHECK(new_row.steps.at(0).title == "appended this step");
}

TEST_CASE("decode explain: a stage or cell the step lacks is refused by name") {
  const decode_test::Case c = decode_test::decodable_cases().front();
  const attn::DecodeTrace dec = attn::compute_decode(c.s, 2);
  CHECK_THROWS_AS(attn::explain_decode(dec.steps[1], c.s, {attn::StageKind::scores, 0}, 0, 0), std::out_of_range);
  CHECK_THROWS_AS(attn::explain_decode(dec.steps[1], c.s, {attn::StageKind::step_scores, 0}, 0, 2), std::out_of_range);
  CHECK_THROWS_AS(attn::explain_decode(dec.steps[1], c.s, {attn::StageKind::step_scores, 9}, 0, 0), std::out_of_range);
}
