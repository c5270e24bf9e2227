// A big scene drawn progressively: the preview (inputs and one head) holds
// exactly the full trace's stages for that head, and the trace completed
// from it equals one computed in one go, single-threaded, bit for bit —
// over random scenes of every option and a 600-token scene on threads.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "attn/compute/trace.hpp"
#include "trace_diff.hpp"

namespace {

using trace_diff::check_bit_identical;
using trace_diff::Rng;

// Every stage of the preview is the full trace's stage of that id and head,
// bit for bit, and the preview has no other.
void check_preview_is_part_of(const attn::Trace& preview, const attn::Trace& full, int head) {
  CHECK_FALSE(preview.complete);
  int heads_stages = 0;
  for (const attn::Stage& st : preview.stages) {
    INFO("stage ", st.id, " head ", st.head);
    CHECK((st.head == -1 || st.head == head));
    heads_stages += st.head == head;
    const attn::Stage* want = full.find(st.id, st.head);
    REQUIRE(want != nullptr);
    CHECK(st.value.dense() == want->value.dense());
    CHECK(st.row_labels == want->row_labels);
    CHECK(st.col_labels == want->col_labels);
    CHECK(st.fully_masked == want->fully_masked);
  }
  int full_heads_stages = 0;
  for (const attn::Stage& st : full.stages) full_heads_stages += st.head == head;
  CHECK(heads_stages == full_heads_stages);
  CHECK(preview.find(attn::StageKind::output) == nullptr);
  CHECK(preview.find(attn::StageKind::concat) == nullptr);
  CHECK(preview.softmax[static_cast<size_t>(head)].max == full.softmax[static_cast<size_t>(head)].max);
  CHECK(preview.softmax[static_cast<size_t>(head)].sum == full.softmax[static_cast<size_t>(head)].sum);
}

}  // namespace

TEST_CASE("a completed preview equals a trace computed in one go, bit for bit, for every head") {
  int checked = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    Rng r(seed);
    const attn::Scenario s = trace_diff::random_scene(r);
    attn::set_compute_threads(1);
    attn::Trace full;
    try {
      full = attn::compute_trace(s);
    } catch (const attn::ComputeError&) {
      attn::set_compute_threads(0);
      CHECK_THROWS_AS(attn::compute_preview(s, 0), attn::ComputeError);  // refused alike
      continue;
    }
    attn::set_compute_threads(0);
    for (int h = 0; h < full.dims.n_heads; ++h) {
      INFO("seed ", seed, " head ", h);
      const attn::Trace preview = attn::compute_preview(s, h);
      check_preview_is_part_of(preview, full, h);
      const attn::Trace done = attn::complete_trace(preview, s);
      CHECK(done.complete);
      check_bit_identical(done, full);
      ++checked;
    }
  }
  MESSAGE(checked, " previews completed");
  CHECK(checked >= 100);
}

TEST_CASE("a preview of a 600-token scene on threads completes to the single-threaded trace bit for bit") {
  Rng r(21);
  attn::Scenario s = trace_diff::threaded_scene(r, 5, 32);
  s.mask = attn::MaskKind::Causal;
  s.positional = attn::Positional::Alibi;
  attn::set_compute_threads(1);
  const attn::Trace one = attn::compute_trace(s);
  attn::set_compute_threads(0);
  for (int h : {0, 3, 4}) {
    INFO("head ", h);
    attn::Progress progress;
    const attn::Trace preview = attn::compute_preview(s, h, {}, &progress);
    CHECK(progress.heads_done == 1);
    check_preview_is_part_of(preview, one, h);
    const attn::Trace done = attn::complete_trace(preview, s, {}, &progress);
    CHECK(progress.heads_done == 5);  // the preview's head is not computed again
    check_bit_identical(done, one);
    // The completed trace holds the preview's own matrices, not copies.
    CHECK(done.find(attn::StageKind::scores, h)->value.same_source(preview.find(attn::StageKind::scores, h)->value));
  }
}

TEST_CASE("a preview is never updated in place, and one of another shape is not reused") {
  Rng r(22);
  attn::Scenario s = trace_diff::threaded_scene(r, 3, 16);
  const attn::Trace preview = attn::compute_preview(s, 1);
  attn::Scenario next = s;
  next.heads[1].w_q(0, 0) += 1;  // an edit update_trace would otherwise apply to head 1 alone
  check_bit_identical(attn::update_trace(preview, s, next), attn::compute_trace(next));
  // complete_trace of another shape computes the scene whole.
  attn::Scenario fewer = s;
  fewer.heads.pop_back();
  fewer.w_o = fewer.w_o->topRows(32).eval();
  check_bit_identical(attn::complete_trace(preview, fewer), attn::compute_trace(fewer));
}

TEST_CASE("a preview of a head the scene lacks, or of an invalid scene, is refused with a message") {
  Rng r(23);
  attn::Scenario s = trace_diff::threaded_scene(r, 2, 8);
  CHECK_THROWS_WITH_AS(attn::compute_preview(s, 2), "compute_preview: head 2 of a scene with 2 heads", std::out_of_range);
  CHECK_THROWS_AS(attn::compute_preview(s, -1), std::out_of_range);
  s.x(3, 3) = std::nan("");
  CHECK_THROWS_AS(attn::compute_preview(s, 0), std::invalid_argument);
}

TEST_CASE("a cancelled completion throws Cancelled, and the preview still completes afterwards") {
  Rng r(24);
  const attn::Scenario s = trace_diff::threaded_scene(r, 4, 16);
  const attn::Trace preview = attn::compute_preview(s, 0);
  attn::Progress progress;
  progress.cancel = true;
  CHECK_THROWS_AS(attn::complete_trace(preview, s, {}, &progress), attn::Cancelled);
  check_bit_identical(attn::complete_trace(preview, s), attn::compute_trace(s));
}
