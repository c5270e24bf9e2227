// The trace: every intermediate of one attention computation, in order.
// The app draws each stage as a grid and the CLI prints them; both read the
// same structure, so what students see is exactly what was computed.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "attn/compute/labels.hpp"
#include "attn/execution/progress.hpp"
#include "attn/base/matrix.hpp"
#include "attn/scenario/scenario.hpp"
#include "attn/compute/stage_kind.hpp"
#include "attn/compute/stage_values.hpp"

namespace attn {

// How a stage's numbers should be read (and coloured).
enum class ValueKind {
  Signed,       // any real number; diverging colours around 0
  Probability,  // in [0, 1]; sequential colours
  Mask,         // 0/1 flags (1 = blocked)
};

const char* to_string(ValueKind k);

// Identifies a stage: its kind plus a head index (-1 when not per head).
struct StageRef {
  StageKind id = StageKind::x;
  int head = -1;
  bool operator==(const StageRef& o) const { return id == o.id && head == o.head; }
};

struct Stage {
  StageKind id = StageKind::x;  // what it is; name_of(id) is its name in files: "scores"
  int head = -1;        // head index for per-head stages, -1 otherwise
  std::string title;    // short human name, e.g. "Q" or "softmax weights"
  std::string formula;  // e.g. "Q = X · W_Q"
  std::vector<StageRef> inputs;  // the stages this one reads from
  StageValues value;             // (rows, cols); masked logits may be -inf
  ValueKind kind = ValueKind::Signed;
  Labels row_labels;  // one per row (tokens, or dims)
  Labels col_labels;  // one per column
  // Cells blocked by the mask, (rows, cols); empty for stages without a mask.
  SharedMask blocked;
  // Rows (keys axis) or columns (queries axis) whose every entry was blocked:
  // their weights are defined as all zero instead of 0/0.
  std::vector<int> fully_masked;

  StageRef ref() const { return {id, head}; }
  bool is_blocked(int r, int c) const {
    return blocked.size() != 0 && blocked(r, c);
  }
};

struct Trace {
  Dims dims;
  SoftmaxAxis softmax_axis = SoftmaxAxis::Keys;
  MaskMode mask_mode = MaskMode::BeforeSoftmax;
  ScoreFn score = ScoreFn::Dot;
  std::vector<Stage> stages;          // in computation order
  std::vector<SoftmaxStats> softmax;  // one per head (see stage_values.hpp)
  std::vector<std::string> notes;     // human-readable flags (e.g. fully masked rows)
  // An estimate of how far the output may be from concat · W_O computed
  // whole, after update_trace updated it from the one before (0: computed
  // whole). Each update adds about an ulp of the largest term it added.
  double output_drift = 0;
  // False for a preview (compute_preview): the inputs and one head, without
  // the other heads, concat, W_O and the output.
  bool complete = true;

  const Stage* find(StageKind id, int head = -1) const;
  const Stage* find(const StageRef& ref) const { return find(ref.id, ref.head); }
  // As find, for a stage a file or the command line names ("weights"):
  // nullptr when the name is no stage, or this trace has none of that name.
  const Stage* find_named(std::string_view name, int head = -1) const;
  int index_of_named(std::string_view name, int head) const;  // -1 when absent, as index_of
  // The one rule for a stage a person names with a head that may not fit
  // it: the stage at `head`; else the per-model stage of that name (X, the
  // output); else the per-head stage at `fallback_head` (0 when negative), as
  // when a focus names no head. -1 when the trace has none of that name.
  int resolve_named(std::string_view name, int head, int fallback_head = 0) const;
  int resolve(StageKind kind, int head, int fallback_head = 0) const;  // the same rule, for a kind
  int index_of(const StageRef& ref) const;  // -1 when absent
};

// exp(logit[i,j] − max) for head h, as the softmax used it (0 when blocked).
double softmax_exp(const Trace& trace, int head, int i, int j);

// Thrown when the computation itself fails on valid shapes, e.g. a value
// overflows to infinity. The message names the stage and the cell.
// `stage`, `row` and `col` name the cell, so a front end can point at the
// inputs behind it.
struct ComputeError : std::runtime_error {
  ComputeError(const std::string& what, StageRef stage_, int row_, int col_)
      : std::runtime_error(what), stage(std::move(stage_)), row(row_), col(col_) {}
  StageRef stage;
  int row = -1, col = -1;
};

// Computes the full trace. Throws std::invalid_argument with validate()'s
// message for bad scenarios, and ComputeError on overflow. Never yields NaN.
// (Progress and Cancelled: attn/execution/progress.hpp.)

Trace compute_trace(const Scenario& s, const Limits& limits = {}, Progress* progress = nullptr);


// A first look at a big scene while the rest is computed: the inputs and
// head `head`'s stages only (complete = false), by the code compute_trace
// runs, so each stage equals the full trace's bit for bit. Throws as
// compute_trace does, and std::out_of_range for a head the scene lacks.
Trace compute_preview(const Scenario& s, int head, const Limits& limits = {}, Progress* progress = nullptr);

// The full trace of `s` from its preview = compute_preview(s, h): the heads
// the preview lacks, then concat, W_O and the output; equal to
// compute_trace(s) bit for bit. (As with update_trace, `preview` must be of
// this `s`; one of another shape or options is not reused, but computed whole.)
Trace complete_trace(const Trace& preview, const Scenario& s, const Limits& limits = {},
                     Progress* progress = nullptr);

// The trace of `now`, given `before` = compute_trace(old): only what the
// difference touches is recomputed (a head's weights, a mask row, labels);
// the result equals compute_trace(now) exactly, except what update.cpp says
// agrees to rounding (a recomputed mask row, an output updated in part).
// A preview `before` (complete = false) is not updated: now is computed whole.
Trace update_trace(const Trace& before, const Scenario& old, const Scenario& now, const Limits& limits = {},
                   Progress* progress = nullptr);

// True when update_trace(before, old, now) certainly computes everything
// again (an edit of X, the context, an option or a shape): nothing of
// `before` is reused, so a caller need not keep its matrices for it.
bool recomputes_everything(const Scenario& old, const Scenario& now);

// A copy of `trace` whose dot-product scores of at least `min_bytes` a head
// are not kept but made again when first read (StageValues::on_demand), by
// the same blocked product from the trace's own Q and K, so every value, cell
// read and explanation is the same bit for bit. The app shows such a copy
// while a new trace is computed, so that two sets of n×n scores never live
// at once (at 2048 tokens and 12 heads, 400 MB each). `keep_head` >= 0
// keeps that head's scores stored: the head on screen, when one head is
// shown, so a long scene holds one head's n×n scores instead of every head's.
Trace with_scores_on_demand(const Trace& trace, std::size_t min_bytes, int keep_head = -1);

}  // namespace attn
