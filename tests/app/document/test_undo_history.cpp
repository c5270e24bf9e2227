// Undo/redo of scenario snapshots: order, redo cleared by a new edit, the
// step and memory bounds dropping the oldest states first, and positions
// (what the "edited" mark compares with the saved state).
#include <doctest/doctest.h>

#include "scenes.hpp"
#include "attn/text/format_number.hpp"
#include "model/document/change_name.hpp"
#include "model/document/undo_history.hpp"

namespace {

attn::Scenario with_x00(double v) {
  attn::Scenario s = test_scenes::small_projected();
  s.x(0, 0) = v;
  return s;
}

}  // namespace

TEST_CASE("undo history: undo and redo walk back and forth through commits") {
  model::UndoHistory h;
  h.reset(with_x00(1));
  CHECK_FALSE(h.can_undo());
  CHECK_FALSE(h.can_redo());
  h.commit(with_x00(2));
  h.commit(with_x00(3));
  CHECK(h.undo_size() == 2);
  CHECK(h.undo().x(0, 0) == 2);
  CHECK(h.undo().x(0, 0) == 1);
  CHECK_FALSE(h.can_undo());
  CHECK(h.redo().x(0, 0) == 2);
  CHECK(h.redo().x(0, 0) == 3);
  CHECK_FALSE(h.can_redo());
  CHECK(h.committed().x(0, 0) == 3);
}

TEST_CASE("undo history: a new edit after undo clears the redo list") {
  model::UndoHistory h;
  h.reset(with_x00(1));
  h.commit(with_x00(2));
  h.undo();
  CHECK(h.can_redo());
  h.commit(with_x00(5));
  CHECK_FALSE(h.can_redo());
  CHECK(h.undo().x(0, 0) == 1);
}

TEST_CASE("undo history: a drag committed once is one undo step") {
  model::UndoHistory h;
  attn::Scenario live = with_x00(0);
  h.reset(live);
  for (int frame = 1; frame <= 30; ++frame) live.x(0, 0) = frame * 0.1;  // dragging, no commits
  h.commit(live);
  CHECK(h.undo_size() == 1);
  CHECK(h.undo().x(0, 0) == 0);
}

TEST_CASE("undo history: bounded by steps and by memory, oldest dropped first") {
  model::UndoHistory by_steps(1u << 30, 3);
  by_steps.reset(with_x00(0));
  for (int i = 1; i <= 10; ++i) by_steps.commit(with_x00(i));
  CHECK(by_steps.undo_size() == 3);
  CHECK(by_steps.undo().x(0, 0) == 9);
  CHECK(by_steps.undo().x(0, 0) == 8);
  CHECK(by_steps.undo().x(0, 0) == 7);

  const std::size_t one = model::scenario_bytes(with_x00(0));
  model::UndoHistory by_bytes(one * 4, 1000);
  by_bytes.reset(with_x00(0));
  for (int i = 1; i <= 10; ++i) by_bytes.commit(with_x00(i));
  CHECK(by_bytes.undo_size() <= 4);
  CHECK(by_bytes.undo_size() >= 1);
  CHECK(by_bytes.undo().x(0, 0) == 9);
}

TEST_CASE("undo history: undoing back to the saved state returns its position") {
  // The app's "(edited)" mark compares positions: saved at 2, edited to 3,
  // undone to 2 is clean again; a new edit from 1 to an equal value is a new state.
  model::UndoHistory h;
  h.reset(with_x00(1));
  const std::uint64_t opened = h.position();
  h.commit(with_x00(2));
  const std::uint64_t saved = h.position();
  CHECK(saved != opened);
  h.commit(with_x00(3));
  CHECK(h.position() != saved);
  h.undo();
  CHECK(h.position() == saved);
  h.undo();
  CHECK(h.position() == opened);
  h.redo();
  CHECK(h.position() == saved);
  h.undo();
  h.commit(with_x00(2));
  CHECK(h.position() != saved);
  CHECK(h.position() != opened);
  // Positions survive the oldest steps being trimmed away.
  model::UndoHistory small(256u << 20, 2);
  small.reset(with_x00(0));
  small.commit(with_x00(1));
  const std::uint64_t kept = small.position();
  small.commit(with_x00(2));
  small.commit(with_x00(3));
  small.undo();
  small.undo();
  CHECK(small.position() == kept);
  h.reset(with_x00(5));
  CHECK(h.position() != saved);
}

TEST_CASE("undo history: every step has a name read off the two states, kept through undo, redo and trimming") {
  attn::Scenario a = test_scenes::small_projected();
  a.tokens = {"the", "cat", "sat"};
  a.tokens.resize(static_cast<size_t>(a.x.rows()), "t");
  model::UndoHistory h(256u << 20, 3);
  h.reset(a);
  attn::Scenario b = a;
  b.x(0, 1) = 3;
  h.commit(b);
  attn::Scenario c = b;
  c.scale = attn::ScaleMode::Temperature;
  c.temperature = 0.5;
  h.commit(c);
  attn::Scenario d = c;
  d.softmax_axis = attn::SoftmaxAxis::Queries;
  h.commit(d);
  attn::Scenario e = d;
  e.heads[0].w_q.setZero();
  h.commit(e);  // four steps, three kept: the oldest goes
  const std::vector<std::string> names = h.undo_names();
  REQUIRE(names.size() == 3);
  CHECK(names[0] == "scaling");
  CHECK(names[1] == "softmax axis");
  CHECK(names[2].rfind("W_Q", 0) == 0);
  h.undo();
  h.undo();
  CHECK(h.undo_names() == std::vector<std::string>{"scaling"});
  CHECK(h.redo_names() == std::vector<std::string>{"softmax axis", names[2]});  // next first
  h.redo();
  CHECK(h.undo_names().back() == "softmax axis");
  CHECK(h.redo_names().size() == 1);
  CHECK(model::describe_change(a, b) == "X[the, 1] " + attn::format_number(a.x(0, 1), 4) + " → 3");
  attn::Scenario f = c;
  f.temperature = 2;
  CHECK(model::describe_change(c, f) == "τ 0.5 → 2");
  attn::Scenario capped = a, recapped = a;
  capped.softcap = 2;
  recapped.softcap = 3.5;
  CHECK(model::describe_change(a, capped) == "soft cap on (c = 2)");
  CHECK(model::describe_change(capped, recapped) == "soft cap 2 → 3.5");
  CHECK(model::describe_change(recapped, a) == "soft cap off");
  CHECK(model::describe_change(a, a) == "edit");
  attn::Scenario g = a;
  g.w_o = attn::Mat::Zero(static_cast<Eigen::Index>(g.heads.size()) * g.heads[0].w_v.cols(), 2);
  g.output_bias = attn::Vec::Zero(2);
  attn::Scenario k = g;
  k.output_bias(1) = 0.25;
  CHECK(model::describe_change(g, k) == "b_O[0, 1] 0 → 0.25");
}
