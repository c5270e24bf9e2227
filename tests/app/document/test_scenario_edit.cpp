// Structural scenario edits: resizing keeps existing values and stays valid,
// token insert/remove/rename keep labels and masks aligned, randomise is
// deterministic for a seed, and editable_value maps stage cells to inputs.
#include <doctest/doctest.h>

#include "scenes.hpp"
#include "model/document/scenario_edit.hpp"

using model::edit::Sequence;

namespace {

void check_valid(const attn::Scenario& s) {
  const std::string e = attn::validate(s);
  CHECK_MESSAGE(e.empty(), e);
}

attn::Scenario with_w_o() {
  attn::Scenario s = test_scenes::small_projected();
  model::edit::set_d_out(s, 4);
  return s;
}

}  // namespace

TEST_CASE("edit: growing and shrinking tokens keeps the existing rows") {
  attn::Scenario s = test_scenes::small_projected();
  const attn::Mat before = s.x;
  model::edit::set_n_tokens(s, Sequence::Queries, 5);
  check_valid(s);
  CHECK(s.x.rows() == 5);
  CHECK(s.x.topRows(3) == before);
  model::edit::set_n_tokens(s, Sequence::Queries, 2);
  check_valid(s);
  CHECK(s.x == before.topRows(2));
}

TEST_CASE("edit: d_model, d_k, d_v, heads and d_out resize every matrix that depends on them") {
  attn::Scenario s = with_w_o();
  const attn::Mat wq = s.heads[0].w_q, wv = s.heads[0].w_v, wo = *s.w_o;
  model::edit::set_d_model(s, 6);
  check_valid(s);
  CHECK(s.heads[0].w_q.topRows(4) == wq);
  model::edit::set_d_k(s, 3);
  check_valid(s);
  CHECK(s.heads[0].w_q.topLeftCorner(4, 2) == wq);
  model::edit::set_d_v(s, 2);
  check_valid(s);
  CHECK(s.heads[0].w_v.topLeftCorner(4, 2) == wv.leftCols(2));
  CHECK(s.w_o->rows() == 2);
  CHECK(s.w_o->topRows(2) == wo.topRows(2));
  model::edit::set_n_heads(s, 3);
  check_valid(s);
  CHECK(s.heads.size() == 3);
  CHECK(s.w_o->rows() == 6);
  CHECK(s.w_o->topRows(2) == wo.topRows(2));  // head 0's block of W_O is kept
  model::edit::set_d_out(s, 5);
  check_valid(s);
  CHECK(s.w_o->cols() == 5);
  model::edit::set_n_heads(s, 1);
  check_valid(s);
}

TEST_CASE("edit: insert, remove and rename tokens keep labels, mask and padding aligned") {
  attn::Scenario s = test_scenes::small_projected();
  s.tokens = {"a", "b", "c"};
  model::edit::set_mask_kind(s, attn::MaskKind::Custom);  // starts from the causal mask
  CHECK(s.custom_mask(0, 1));
  CHECK_FALSE(s.custom_mask(1, 0));
  model::edit::set_key_padding(s, 2, true);
  const attn::Mat before = s.x;

  model::edit::insert_token(s, Sequence::Queries, 1, "new");
  check_valid(s);
  CHECK(s.tokens == std::vector<std::string>{"a", "new", "b", "c"});
  CHECK(s.x.row(0) == before.row(0));
  CHECK(s.x.row(2) == before.row(1));
  CHECK(s.key_padding == std::vector<bool>{false, false, false, true});
  CHECK(s.custom_mask(0, 2));        // old (0, 1)
  CHECK_FALSE(s.custom_mask(2, 0));  // old (1, 0)

  model::edit::remove_token(s, Sequence::Queries, 0);
  check_valid(s);
  CHECK(s.tokens == std::vector<std::string>{"new", "b", "c"});
  CHECK(s.x.row(1) == before.row(1));
  CHECK(s.x.row(2) == before.row(2));
  CHECK(s.key_padding == std::vector<bool>{false, false, true});

  model::edit::rename_token(s, Sequence::Queries, 2, "sea");
  CHECK(s.tokens[2] == "sea");
  model::edit::remove_token(s, Sequence::Queries, 0);
  model::edit::remove_token(s, Sequence::Queries, 0);
  model::edit::remove_token(s, Sequence::Queries, 0);  // the last token stays
  CHECK(s.x.rows() == 1);
  check_valid(s);
}

TEST_CASE("edit: randomise is deterministic for a seed and differs between seeds") {
  attn::Scenario a = with_w_o(), b = with_w_o(), c = with_w_o();
  model::edit::randomise(a, 42);
  model::edit::randomise(b, 42);
  model::edit::randomise(c, 43);
  CHECK(a.x == b.x);
  CHECK(a.heads[0].w_k == b.heads[0].w_k);
  CHECK(*a.w_o == *b.w_o);
  CHECK(a.x != c.x);
  CHECK(a.x.rows() == 3);
  CHECK(a.x.cols() == 4);
  for (Eigen::Index i = 0; i < a.x.size(); ++i) {
    CHECK(a.x(i) >= -1.0);
    CHECK(a.x(i) <= 1.0);
  }
  check_valid(a);
  CHECK(model::edit::seeded_value(1, 2, 3, 4) == model::edit::seeded_value(1, 2, 3, 4));
}

TEST_CASE("edit: projections, W_O and cross-attention switch on and off validly") {
  attn::Scenario s = test_scenes::small_projected();
  model::edit::set_projected(s, false);
  check_valid(s);
  CHECK(s.heads.empty());
  model::edit::set_projected(s, true);
  check_valid(s);
  model::edit::set_w_o(s, true);
  check_valid(s);
  model::edit::set_cross(s, true, 5);
  check_valid(s);
  CHECK(attn::dims_of(s).n_k == 5);
  model::edit::set_n_tokens(s, Sequence::Context, 2);
  model::edit::set_d_context(s, 3);
  check_valid(s);
  model::edit::set_cross(s, false);
  check_valid(s);
}

TEST_CASE("edit: painting a mask cell switches to a custom mask") {
  attn::Scenario s = test_scenes::small_projected();  // causal
  CHECK(model::edit::effective_blocked(s, 0, 2));
  model::edit::set_blocked(s, 2, 0, true);
  CHECK(s.mask == attn::MaskKind::Custom);
  CHECK(model::edit::effective_blocked(s, 0, 2));  // the causal cells were kept
  CHECK(model::edit::effective_blocked(s, 2, 0));
  model::edit::set_blocked(s, 0, 2, false);
  CHECK_FALSE(model::edit::effective_blocked(s, 0, 2));
  check_valid(s);
}

TEST_CASE("edit: editable_value points at the scenario entry a stage cell shows") {
  attn::Scenario s = with_w_o();
  double* x = model::edit::editable_value(s, {attn::StageKind::x, -1}, 1, 2);
  REQUIRE(x != nullptr);
  CHECK(x == &s.x(1, 2));
  CHECK(model::edit::editable_value(s, {attn::StageKind::w_k, 0}, 3, 1) == &s.heads[0].w_k(3, 1));
  CHECK(model::edit::editable_value(s, {attn::StageKind::w_o, -1}, 2, 3) == &(*s.w_o)(2, 3));
  CHECK(model::edit::editable_value(s, {attn::StageKind::scores, 0}, 0, 0) == nullptr);  // computed, not editable
  CHECK(model::edit::editable_value(s, {attn::StageKind::x, -1}, 3, 0) == nullptr);      // out of range
  CHECK(model::edit::editable_value(s, {attn::StageKind::w_q, 1}, 0, 0) == nullptr);     // no head 1
  s.positional = attn::Positional::Sinusoidal;
  CHECK(model::edit::editable_value(s, {attn::StageKind::x_raw, -1}, 0, 0) == &s.x(0, 0));
  CHECK(model::edit::editable_value(s, {attn::StageKind::x, -1}, 0, 0) == nullptr);  // X + PE is computed
}

TEST_CASE("edit: shared key/value heads stay valid through every shape edit, and only group leaders own W_K, W_V") {
  attn::Scenario s = test_scenes::small_projected();
  model::edit::set_n_heads(s, 4);
  model::edit::set_d_out(s, 3);
  model::edit::fit_kv_heads(s, 3);  // 3 does not divide 4: the nearest count below that does
  CHECK(s.n_kv_heads == 2);
  CHECK(model::edit::n_kv_heads(s) == 2);
  check_valid(s);
  CHECK(s.heads[1].w_k.size() == 0);
  CHECK(s.heads[2].w_k.size() != 0);
  model::edit::set_d_k(s, 5);
  model::edit::set_d_v(s, 2);
  model::edit::set_d_model(s, 6);
  model::edit::randomise(s, 9);
  check_valid(s);
  CHECK(s.heads[3].w_v.size() == 0);
  model::edit::set_n_heads(s, 6);  // groups of 2 stay groups of 2
  CHECK(model::edit::n_kv_heads(s) == 3);
  check_valid(s);
  model::edit::set_n_heads(s, 5);  // 2 does not divide 5: every head its own again
  CHECK(model::edit::n_kv_heads(s) == 5);
  CHECK(s.n_kv_heads == 0);
  check_valid(s);
  model::edit::fit_kv_heads(s, 1);  // multi-query
  CHECK(s.n_kv_heads == 1);
  for (size_t h = 1; h < 5; ++h) CHECK(s.heads[h].w_k.size() == 0);
  check_valid(s);
  model::edit::set_projected(s, false);
  CHECK(s.n_kv_heads == 0);
  check_valid(s);
}

TEST_CASE("edit: the sliding window and strided masks start from sensible sizes, and painting starts from their cells") {
  attn::Scenario s = test_scenes::small_projected();
  model::edit::set_n_tokens(s, Sequence::Queries, 7);
  model::edit::set_mask_kind(s, attn::MaskKind::SlidingWindow);
  CHECK(s.window == 4);
  check_valid(s);
  s.sinks = 1;
  CHECK(model::edit::effective_blocked(s, 6, 2));
  CHECK_FALSE(model::edit::effective_blocked(s, 6, 0));  // the sink
  model::edit::set_blocked(s, 0, 0, false);  // painting switches to a custom mask of the same cells
  CHECK(s.mask == attn::MaskKind::Custom);
  CHECK(s.custom_mask(6, 2));
  CHECK_FALSE(s.custom_mask(6, 0));
  CHECK(s.custom_mask(1, 5));
  model::edit::set_mask_kind(s, attn::MaskKind::Strided);
  CHECK(s.stride == 3);
  check_valid(s);
}

TEST_CASE("edit: W_O's bias follows W_O: kept when d_out changes, removed with W_O") {
  attn::Scenario s = with_w_o();
  s.output_bias = attn::Vec::LinSpaced(4, 1.0, 4.0);
  check_valid(s);
  model::edit::set_d_out(s, 6);
  check_valid(s);
  REQUIRE(s.output_bias.size() == 6);
  CHECK(s.output_bias.head(4) == attn::Vec::LinSpaced(4, 1.0, 4.0));
  CHECK(s.output_bias.tail(2).isZero());
  model::edit::set_d_out(s, 2);
  check_valid(s);
  CHECK(s.output_bias == attn::Vec::LinSpaced(2, 1.0, 2.0));
  model::edit::set_w_o(s, false);
  check_valid(s);
  CHECK(s.output_bias.size() == 0);
}
