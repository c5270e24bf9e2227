// Undo/redo of scenario snapshots: order, redo cleared by a new edit, and the
// step and memory bounds dropping the oldest states first.
#include <doctest/doctest.h>

#include "scenes.hpp"
#include "viz/undo_history.hpp"

namespace {

attn::Scenario with_x00(double v) {
  attn::Scenario s = test_scenes::small_projected();
  s.x(0, 0) = v;
  return s;
}

}  // namespace

TEST_CASE("undo history: undo and redo walk back and forth through commits") {
  viz::UndoHistory h;
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
  viz::UndoHistory h;
  h.reset(with_x00(1));
  h.commit(with_x00(2));
  h.undo();
  CHECK(h.can_redo());
  h.commit(with_x00(5));
  CHECK_FALSE(h.can_redo());
  CHECK(h.undo().x(0, 0) == 1);
}

TEST_CASE("undo history: a drag committed once is one undo step") {
  viz::UndoHistory h;
  attn::Scenario live = with_x00(0);
  h.reset(live);
  for (int frame = 1; frame <= 30; ++frame) live.x(0, 0) = frame * 0.1;  // dragging, no commits
  h.commit(live);
  CHECK(h.undo_size() == 1);
  CHECK(h.undo().x(0, 0) == 0);
}

TEST_CASE("undo history: bounded by steps and by memory, oldest dropped first") {
  viz::UndoHistory by_steps(1u << 30, 3);
  by_steps.reset(with_x00(0));
  for (int i = 1; i <= 10; ++i) by_steps.commit(with_x00(i));
  CHECK(by_steps.undo_size() == 3);
  CHECK(by_steps.undo().x(0, 0) == 9);
  CHECK(by_steps.undo().x(0, 0) == 8);
  CHECK(by_steps.undo().x(0, 0) == 7);

  const std::size_t one = viz::scenario_bytes(with_x00(0));
  viz::UndoHistory by_bytes(one * 4, 1000);
  by_bytes.reset(with_x00(0));
  for (int i = 1; i <= 10; ++i) by_bytes.commit(with_x00(i));
  CHECK(by_bytes.undo_size() <= 4);
  CHECK(by_bytes.undo_size() >= 1);
  CHECK(by_bytes.undo().x(0, 0) == 9);
}
