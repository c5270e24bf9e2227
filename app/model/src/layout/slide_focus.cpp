// A slide's focus (slide_focus.hpp): the largest of a few candidate pictures
// that reaches the slide's cell size, tried from most to least complete.
#include "model/layout/slide_focus.hpp"

#include <algorithm>
#include <set>

#include "model/layout/shown_stages.hpp"

namespace model {
namespace {

struct Candidate {
  std::vector<int> only;
  int head = -1;
  std::string left_out;
};

// The stage titles of `dropped`, each kind once ("Q, K").
std::string titles_of(const attn::Trace& trace, const std::vector<int>& dropped) {
  std::string out;
  std::set<std::string> seen;
  for (int i : dropped) {
    const std::string t = trace.stages[static_cast<std::size_t>(i)].title;
    if (!seen.insert(t).second) continue;
    out += (out.empty() ? "" : ", ") + t;
  }
  return out;
}

// The head a step is about: its question's, else its first highlight's,
// else the lowest head among its stages (-1 when none is per head).
int step_head(const AppState& s, const attn::Trace& trace, const std::vector<int>& stages) {
  if (s.lesson) {
    const auto& q = s.lesson->current().question;
    if (q && q->target.head >= 0) return q->target.head;
    for (const attn::io::CellSpec& h : s.highlights)
      if (h.head >= 0) return h.head;
  }
  int lowest = -1;
  for (int i : stages) {
    const int h = trace.stages[static_cast<std::size_t>(i)].head;
    if (h >= 0 && (lowest < 0 || h < lowest)) lowest = h;
  }
  return lowest;
}

std::vector<int> without(const std::vector<int>& all, const std::vector<int>& drop) {
  std::vector<int> out;
  for (int i : all)
    if (std::find(drop.begin(), drop.end(), i) == drop.end()) out.push_back(i);
  return out;
}

}  // namespace

bool shows_slide(const AppState& s) {
  if (s.view.slide) return true;
  if (!s.view.presentation || !s.lesson) return false;
  const attn::io::LessonView& v = s.lesson->current().view;
  const bool plays = !v.play_from.empty() && !v.play_to.empty();
  return !plays && v.time == attn::io::LessonView::Time::End;
}

double fitted_cell_px(const PipelineLayout& layout, double view_w, double view_h) {
  if (layout.grids.empty()) return 0;
  const double scale = std::min(view_w / std::max(layout.bounds.width(), 1.0), view_h / std::max(layout.bounds.height(), 1.0));
  double smallest = 1e300;
  for (const GridBox& g : layout.grids) smallest = std::min(smallest, g.min_cell());
  return smallest * scale;
}

SlideFocus slide_focus(const AppState& s, const attn::Trace& trace, const std::vector<int>& shown, LayoutOptions options,
                       double view_w, double view_h) {
  const int view_head = options.head;
  std::vector<Candidate> candidates{{shown, view_head, ""}};
  const std::vector<int> named = stages_named_by_step(s, trace);
  std::vector<int> core = shown;
  if (!named.empty() && !shown.empty() && named != shown) {
    candidates.push_back({named, view_head, "Not shown: " + titles_of(trace, without(shown, named))});
    core = named;
  }
  // Several heads of the step's stages: the one the step is about.
  std::set<int> heads;
  for (int i : core)
    if (trace.stages[static_cast<std::size_t>(i)].head >= 0) heads.insert(trace.stages[static_cast<std::size_t>(i)].head);
  if (heads.size() > 1) {
    const int h = step_head(s, trace, core);
    std::vector<int> one;
    for (int i : core)
      if (trace.stages[static_cast<std::size_t>(i)].head == h || trace.stages[static_cast<std::size_t>(i)].head < 0) one.push_back(i);
    std::string left = candidates.back().left_out;
    left += (left.empty() ? "Head " : " · head ") + std::to_string(h) + " of " + std::to_string(heads.size()) + " shown";
    candidates.push_back({one, h, left});
  }
  SlideFocus best;
  best.cell_px = -1;
  for (const Candidate& c : candidates) {
    options.only = c.only;
    options.head = c.head;
    const double px = fitted_cell_px(layout_for_view(trace, options, view_w, view_h), view_w, view_h);
    if (px > best.cell_px * 1.05) best = {c.only, c.head, c.left_out, px};
    if (px >= kSlideMinCellPx) break;  // the most complete picture that reads well
  }
  return best;
}

}  // namespace model
