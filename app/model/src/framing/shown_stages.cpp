// Which stages the canvas lays out (see shown_stages.hpp).
#include "model/framing/shown_stages.hpp"

#include <algorithm>

#include "model/layout/layout.hpp"

namespace model {
namespace {

// The stages of kind `id` on the heads in view: its one stage when it has no
// head, else that head's (when shown) or, for head -1, every shown head's.
void add_kind(const attn::Trace& trace, attn::StageKind id, int head, int view_head, std::vector<int>* out) {
  for (size_t i = 0; i < trace.stages.size(); ++i) {
    const attn::Stage& st = trace.stages[i];
    if (st.id != id) continue;
    if (st.head >= 0) {
      if (head >= 0 && st.head != head) continue;
      if (view_head >= 0 && st.head != view_head) continue;
    }
    out->push_back(static_cast<int>(i));
  }
}

// "masked" in a scene with no mask (and no padding) blocks nothing: it is
// its input again, so a step about the weights shows the scores it came
// from instead (a lesson step on such a scene showed a "masked" grid).
bool passes_through(const attn::Stage& s) { return s.id == attn::StageKind::masked && s.blocked.size() == 0; }

void add_with_inputs(const attn::Trace& trace, const std::vector<int>& stages, std::vector<int>* out) {
  for (int i : stages) {
    out->push_back(i);
    for (int j : stage_with_inputs(trace, i)) {
      if (j == i) continue;
      if (passes_through(trace.stages[static_cast<size_t>(j)])) {
        for (int k : stage_with_inputs(trace, j))
          if (k != j) out->push_back(k);
      } else {
        out->push_back(j);
      }
    }
  }
}

// As add_kind, for a stage a lesson file names; a name that is no stage adds nothing.
void add_named(const attn::Trace& trace, const std::string& name, int head, int view_head, std::vector<int>* out) {
  if (const std::optional<attn::StageKind> id = attn::stage_kind_named(name)) add_kind(trace, *id, head, view_head, out);
}

std::vector<int> sorted_unique(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

std::vector<int> stages_named_by_step(const AppState& s, const LessonState& l, const attn::Trace& trace) {
  std::vector<int> out;
  if (!l.lesson) return out;
  for (const attn::io::CellSpec& h : l.highlights) add_named(trace, h.stage, h.head, s.view.head, &out);
  const auto& q = l.lesson->current().question;
  if (q && !q->target.stage.empty()) add_named(trace, q->target.stage, q->target.head, s.view.head, &out);
  return sorted_unique(out);
}

std::vector<int> stages_step_is_about(const AppState& s, const LessonState& l, const attn::Trace& trace) {
  std::vector<int> out = stages_named_by_step(s, l, trace);
  if (!out.empty() || !l.lesson || !s.view.zoom_stage) return out;
  const attn::StageRef& z = *s.view.zoom_stage;
  add_kind(trace, z.id, z.head, s.view.head, &out);
  if (out.empty() && z.head >= 0) add_kind(trace, z.id, -1, s.view.head, &out);
  return sorted_unique(out);
}

std::vector<int> shown_stages(const AppState& s, const LessonState& l, const attn::Trace& trace, const Timeline& tl, const Frame& frame) {
  std::vector<int> focus;
  if (s.view.zoom_stage) {
    // A zoom with no head (a lesson step about "weights" with every head
    // shown) takes that stage of every head in view.
    const attn::StageRef& z = *s.view.zoom_stage;
    add_kind(trace, z.id, z.head, s.view.head, &focus);
    if (focus.empty() && z.head >= 0) add_kind(trace, z.id, -1, s.view.head, &focus);
  } else if (s.view.presentation) {
    const int at = presented_stage(tl, frame);
    if (at >= 0) focus.push_back(at);
  }
  if (focus.empty()) return {};
  std::vector<int> out;
  add_with_inputs(trace, focus, &out);
  // A lesson step's grids stay on screen however the view was reached.
  if (l.lesson) {
    const std::vector<int> named = stages_named_by_step(s, l, trace);
    out.insert(out.end(), named.begin(), named.end());
  }
  return sorted_unique(out);
}

}  // namespace model
