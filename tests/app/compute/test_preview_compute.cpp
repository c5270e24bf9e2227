// A big document drawn progressively (TraceModel): with nothing on screen,
// the background recompute shows a preview of the inputs and the head on
// screen first, then the whole trace completed from it. The preview is
// exactly its stages of the newest revision's trace, is marked stale, is never
// updated in place by an edit, and a failure or cancel after it says so.
// The worker is held after the preview (inside the wake-up callback), so the
// test sees each state in turn. No GL, no timing.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "held_step.hpp"
#include "scenes.hpp"
#include "model/trace/trace_model.hpp"

namespace {

using test_scenes::big_scene;
using test_scenes::differs_from_fresh;

// Holds the worker in its wake-up call until release(): a preview, once
// published, stays the newest result until the test lets the worker go on.
class Gate {
 public:
  void attach(model::TraceModel& m) {
    m.set_on_ready([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      ++wakes_;
      changed_.notify_all();
      changed_.wait(lock, [this] { return open_; });
    });
  }
  void wait_for_wakes(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return wakes_ >= n; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int wakes_ = 0;
  bool open_ = false;
};

// A background-only model whose worker the gate holds. The gate opens before
// the model is destroyed (a failed REQUIRE included), so its worker can end.
struct HeldModel {
  Gate gate;
  model::TraceModel m{0};  // every scene in the background
  HeldModel() { gate.attach(m); }
  ~HeldModel() { gate.release(); }
};

// Every stage of the preview equals the stage of that id and head in a fresh
// trace of `s`, bit for bit, and it holds only the inputs and `head`.
std::string preview_differs(const attn::Trace& preview, const attn::Scenario& s, int head) {
  const attn::Trace fresh = attn::compute_trace(s);
  for (const attn::Stage& st : preview.stages) {
    if (st.head != -1 && st.head != head) return attn::to_string(st.id) + " of head " + std::to_string(st.head) + " in a preview of head " + std::to_string(head);
    const attn::Stage* want = fresh.find(st.id, st.head);
    if (!want) return attn::to_string(st.id) + " is not in the full trace";
    if (st.value.dense() != want->value.dense()) return attn::to_string(st.id) + " head " + std::to_string(st.head) + " differs";
  }
  if (!preview.find(attn::StageKind::head_output, head)) return "no head output";
  return "";
}

}  // namespace

TEST_CASE("a big document's first trace is drawn progressively: the head on screen, then the whole") {
  HeldModel held;
  model::TraceModel& m = held.m;
  Gate& gate = held.gate;
  const attn::Scenario s = big_scene();
  const model::TimelineKey head2{model::Granularity::Stage, 2};  // head 2 on screen
  m.update(s, 1, 1, head2);
  CHECK_FALSE(m.has_trace());
  gate.wait_for_wakes(1);  // the preview is published; the worker waits
  CHECK(m.update(s, 1, 1, {}));
  REQUIRE(m.has_trace());
  CHECK(m.preview());
  CHECK(m.preview_head() == 2);
  CHECK(m.computing());
  CHECK(m.stale());
  CHECK(m.error().empty());
  CHECK(preview_differs(m.trace(), s, 2) == "");
  CHECK(m.row_ranges().size() == m.trace().stages.size());
  CHECK(m.timeline().total > 0);
  const std::uint64_t preview_generation = m.generation(), preview_layout = m.layout_generation();
  gate.release();
  m.wait_idle();
  CHECK(m.update(s, 1, 1, {}));
  CHECK_FALSE(m.preview());
  CHECK(m.preview_head() == -1);
  CHECK_FALSE(m.computing());
  CHECK_FALSE(m.stale());
  CHECK(m.generation() == preview_generation + 1);
  CHECK(m.layout_generation() > preview_layout);  // concat, W_O and the output join the picture
  CHECK(differs_from_fresh(m.trace(), s) == "");
  CHECK(m.row_ranges().size() == m.trace().stages.size());
}

TEST_CASE("an edit while the preview shows is computed whole, never from the preview") {
  HeldModel held;
  model::TraceModel& m = held.m;
  Gate& gate = held.gate;
  attn::Scenario s = big_scene();
  m.update(s, 1, 1, {});
  gate.wait_for_wakes(1);
  m.update(s, 1, 1, {});
  REQUIRE(m.preview());
  CHECK(m.preview_head() == 0);  // no head asked for: the first
  s.heads[0].w_q(1, 1) += 0.5;  // update_trace would redo head 0 alone on a whole trace
  m.update(s, 1, 2, {});
  CHECK(m.computing());
  CHECK(m.preview());  // the old revision's preview, still marked stale, until the new one
  CHECK(m.stale());
  gate.release();
  m.wait_idle();
  m.update(s, 1, 2, {});
  REQUIRE(m.has_trace());
  CHECK_FALSE(m.preview());
  CHECK(differs_from_fresh(m.trace(), s) == "");
  CHECK(m.scenario().heads[0].w_q(1, 1) == s.heads[0].w_q(1, 1));
}

TEST_CASE("when the rest fails after the preview, the document shows no grids and says why") {
  HeldModel held;
  model::TraceModel& m = held.m;
  Gate& gate = held.gate;
  attn::Scenario s = big_scene();
  s.heads[3].w_q.setConstant(1e154);  // head 3's scores overflow; head 0 is fine
  s.heads[3].w_k.setConstant(1e154);
  m.update(s, 1, 1, {});
  gate.wait_for_wakes(1);
  m.update(s, 1, 1, {});
  REQUIRE(m.preview());
  gate.release();
  m.wait_idle();
  CHECK(m.update(s, 1, 1, {}));
  CHECK_FALSE(m.has_trace());
  CHECK_FALSE(m.preview());
  CHECK(m.error().find("head 3") != std::string::npos);
  CHECK_FALSE(m.offending().empty());
}

TEST_CASE("cancel while the preview shows keeps it, says only that head was computed, and an edit computes whole") {
  HeldModel held;
  model::TraceModel& m = held.m;
  Gate& gate = held.gate;
  attn::Scenario s = big_scene();
  m.update(s, 1, 1, model::TimelineKey{model::Granularity::Stage, 1});  // head 1 on screen
  gate.wait_for_wakes(1);
  m.update(s, 1, 1, {});
  REQUIRE(m.preview());
  m.cancel();
  CHECK_FALSE(m.computing());
  CHECK(m.preview());
  CHECK(m.stale());
  CHECK(m.error().empty());
  CHECK(m.cancelled() == "Stopped: only head 1 was computed (the other heads, concat and the output were not).");
  gate.release();
  m.wait_idle();
  m.update(s, 1, 1, {});
  CHECK(m.preview());  // the cancelled job's result is never shown
  SUBCASE("Compute again finishes the same revision") {
    m.compute_again();
    m.update(s, 1, 1, {});
    CHECK(m.computing());
    m.wait_idle();
    m.update(s, 1, 1, {});
    CHECK_FALSE(m.preview());
    CHECK(m.cancelled().empty());
    CHECK(differs_from_fresh(m.trace(), s) == "");
    return;
  }
  s.x(0, 0) += 1;
  m.update(s, 1, 2, {});
  m.wait_idle();
  m.update(s, 1, 2, {});
  CHECK_FALSE(m.preview());
  CHECK(differs_from_fresh(m.trace(), s) == "");
}

TEST_CASE("a held preview stays on screen with the whole trace finished behind it, until released") {
  HeldModel held;
  model::TraceModel& m = held.m;
  const attn::Scenario s = big_scene();
  CHECK_FALSE(m.computes_in_background());  // nothing on screen or computing yet
  m.hold_preview(true);
  m.update(s, 1, 1, {});
  CHECK(m.computes_in_background());
  held.gate.wait_for_wakes(1);  // the preview is published
  m.update(s, 1, 1, {});
  REQUIRE(m.preview());
  held.gate.release();
  m.wait_idle();  // the whole trace is ready now
  CHECK_FALSE(m.update(s, 1, 1, {}));  // held: nothing replaced
  CHECK(m.preview());
  CHECK(m.computing());
  CHECK(preview_differs(m.trace(), s, 0) == "");
  m.hold_preview(false);
  CHECK(m.update(s, 1, 1, {}));
  CHECK_FALSE(m.preview());
  CHECK_FALSE(m.computing());
  CHECK(differs_from_fresh(m.trace(), s) == "");
  CHECK(m.computes_in_background());  // its edits will be too
}

TEST_CASE("a held preview is shown even when the whole trace landed too and the follow-up step has not finished") {
  // --screenshot-at first-grids: the picture must be the preview, however
  // the preview's step and the whole trace race on a loaded machine.
  test_steps::HeldStep step;
  model::TraceModel m(0);
  m.set_follow_up(&step);
  const attn::Scenario s = big_scene();
  m.hold_preview(true);
  m.update(s, 1, 1, {});
  m.wait_idle();  // the preview and the whole trace have both landed
  CHECK(m.update(s, 1, 1, {}));
  REQUIRE(m.preview());
  CHECK(preview_differs(m.trace(), s, 0) == "");
  CHECK_FALSE(m.update(s, 1, 1, {}));  // held
  CHECK(m.preview());
  m.hold_preview(false);
  CHECK_FALSE(m.update(s, 1, 1, {}));  // the whole trace waits for its step
  CHECK(m.preview());
  step.done = true;
  CHECK(m.update(s, 1, 1, {}));
  CHECK_FALSE(m.preview());
  CHECK(differs_from_fresh(m.trace(), s) == "");
}
