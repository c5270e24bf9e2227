// A slide's focus (slide_focus.hpp): the largest of a few candidate pictures
// that reaches the slide's cell size, tried from most to least complete.
#include "model/framing/slide_focus.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "model/framing/shown_stages.hpp"

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
int step_head(const LessonState& l, const attn::Trace& trace, const std::vector<int>& stages) {
  if (l.lesson) {
    const auto& q = l.lesson->current().question;
    if (q && q->target.head >= 0) return q->target.head;
    for (const attn::io::CellSpec& h : l.highlights)
      if (h.head >= 0) return h.head;
  }
  int lowest = -1;
  for (int i : stages) {
    const int h = trace.stages[static_cast<std::size_t>(i)].head;
    if (h >= 0 && (lowest < 0 || h < lowest)) lowest = h;
  }
  return lowest;
}

// The heads of the per-head stages among `stages`.
std::set<int> heads_of(const attn::Trace& trace, const std::vector<int>& stages) {
  std::set<int> out;
  for (int i : stages)
    if (trace.stages[static_cast<std::size_t>(i)].head >= 0) out.insert(trace.stages[static_cast<std::size_t>(i)].head);
  return out;
}

// The stages of `stages` on the given heads, and the shared ones.
std::vector<int> of_heads(const attn::Trace& trace, const std::vector<int>& stages, const std::vector<int>& heads) {
  std::vector<int> out;
  for (int i : stages) {
    const int h = trace.stages[static_cast<std::size_t>(i)].head;
    if (h < 0 || std::find(heads.begin(), heads.end(), h) != heads.end()) out.push_back(i);
  }
  return out;
}

// Head h and the heads that read a stage computed on another head that h's
// stages read too: with grouped-query attention, h's group (the query heads
// that share one K and V). Just {h} when no input is shared.
std::vector<int> heads_sharing_inputs(const attn::Trace& trace, const std::vector<int>& stages, int h) {
  std::vector<attn::StageRef> read_by_h;
  for (int i : stages) {
    const attn::Stage& st = trace.stages[static_cast<std::size_t>(i)];
    if (st.head == h)
      for (const attn::StageRef& in : st.inputs)
        if (in.head >= 0) read_by_h.push_back(in);
  }
  std::set<int> group{h};
  for (int i : stages) {
    const attn::Stage& st = trace.stages[static_cast<std::size_t>(i)];
    if (st.head < 0 || st.head == h) continue;
    for (const attn::StageRef& in : st.inputs)
      if (in.head >= 0 && in.head != st.head && std::find(read_by_h.begin(), read_by_h.end(), in) != read_by_h.end())
        group.insert(st.head);
  }
  return {group.begin(), group.end()};
}

// "Head 2 of 4 shown", "Heads 0 and 1 of 4 shown".
std::string heads_note(const std::vector<int>& heads, int n_heads) {
  std::string list;
  for (std::size_t i = 0; i < heads.size(); ++i)
    list += (i == 0 ? "" : i + 1 == heads.size() ? " and " : ", ") + std::to_string(heads[i]);
  return (heads.size() == 1 ? "Head " : "Heads ") + list + " of " + std::to_string(n_heads) + " shown";
}

std::vector<int> without(const std::vector<int>& all, const std::vector<int>& drop) {
  std::vector<int> out;
  for (int i : all)
    if (std::find(drop.begin(), drop.end(), i) == drop.end()) out.push_back(i);
  return out;
}

}  // namespace

bool shows_slide(const AppState& s, const LessonState& l) {
  if (s.view.slide) return true;
  if (!s.view.presentation || !l.lesson) return false;
  const attn::io::LessonView& v = l.lesson->current().view;
  const bool plays = !v.play_from.empty() && !v.play_to.empty();
  return !plays && v.time == attn::io::LessonView::Time::End;
}

bool slide_explains_score(const AppState& s, const LessonState& l) {
  return shows_slide(s, l) && l.lesson && !l.lesson->current().view.inspect.stage.empty() && s.pinned.has_value();
}

double fitted_cell_px(const PipelineLayout& layout, double view_w, double view_h) {
  if (layout.grids.empty()) return 0;
  const double scale = std::min(view_w / std::max(layout.bounds.width(), 1.0), view_h / std::max(layout.bounds.height(), 1.0));
  double smallest = 1e300;
  for (const GridBox& g : layout.grids) smallest = std::min(smallest, g.min_cell());
  return smallest * scale;
}

SlideFocus slide_focus(const AppState& s, const LessonState& l, const attn::Trace& trace, const std::vector<int>& shown, LayoutOptions options,
                       double view_w, double view_h) {
  const int view_head = options.head;
  // From most to least complete: what the step shows; the heads of its head's
  // group (grouped-query attention: one shared K and V, read by each);
  // that head alone; what the step is about without the inputs; one head of that.
  std::vector<Candidate> candidates{{shown, view_head, ""}};
  const int h = step_head(l, trace, shown);
  const std::vector<int> group = heads_sharing_inputs(trace, shown, h);
  const int n_heads = static_cast<int>(heads_of(trace, shown).size());
  if (static_cast<int>(group.size()) > 1 && static_cast<int>(group.size()) < n_heads)
    candidates.push_back({of_heads(trace, shown, group), view_head, heads_note(group, n_heads)});
  if (n_heads > 1) candidates.push_back({of_heads(trace, shown, {h}), h, heads_note({h}, n_heads)});
  const std::vector<int> about = stages_step_is_about(s, l, trace);
  if (!about.empty() && about != shown) {
    const std::string dropped = "Not shown: " + titles_of(trace, without(shown, about));
    candidates.push_back({about, view_head, dropped});
    const int about_heads = static_cast<int>(heads_of(trace, about).size());
    if (about_heads > 1) {
      const int ah = step_head(l, trace, about);
      candidates.push_back({of_heads(trace, about, {ah}), ah, dropped + " · " + heads_note({ah}, about_heads)});
    }
  }
  SlideFocus best;
  best.cell_px = -1;
  for (const Candidate& c : candidates)
    for (const bool captions : {true, false}) {
      // The caption line under each grid goes before any grid does: the
      // slide's text says what the grids mean.
      options.only = c.only;
      options.head = c.head;
      options.captions = captions;
      options.share_row_labels = true;
      const double px = fitted_cell_px(layout_for_view(trace, options, view_w, view_h), view_w, view_h);
      if (px > best.cell_px * 1.05) best = {c.only, c.head, c.left_out, px, captions};
      if (px >= kSlideMinCellPx) return best;  // the most complete picture that reads well
    }
  return best;
}

std::optional<SlideCrop> slide_crop(const LessonState& l, const attn::Trace& trace, const PipelineLayout& layout, double view_w,
                                    double view_h) {
  if (layout.grids.empty() || fitted_cell_px(layout, view_w, view_h) >= kSlideMinCellPx) return std::nullopt;
  // The grid the step asks about or highlights, else the one with most cells.
  int row = -1, col = -1;
  const GridBox* g = nullptr;
  auto named = [&](const std::string& stage, int head) -> const GridBox* {
    for (const GridBox& box : layout.grids) {
      const attn::Stage& st = trace.stages[static_cast<std::size_t>(box.stage)];
      if (attn::name_of(st.id) == stage && (head < 0 || st.head < 0 || st.head == head)) return &box;
    }
    return nullptr;
  };
  if (l.lesson && l.lesson->current().question) {
    const auto& t = l.lesson->current().question->target;
    if ((g = named(t.stage, t.head))) row = t.row, col = t.col;
  }
  for (const attn::io::CellSpec& h : l.highlights)
    if (!g && (g = named(h.stage, h.head))) row = h.row, col = h.col;
  if (!g)
    for (const GridBox& box : layout.grids)
      if (!g || static_cast<long>(box.rows) * box.cols > static_cast<long>(g->rows) * g->cols) g = &box;
  // Rows r0..r1 and columns c0..c1 with room for what reads them: the row
  // labels on the left (pinned there when c0 > 0), the header above row 0
  // (or a band for the pinned column labels), the legend under the last row.
  const double labels_w = g->cells.x0 - g->box.x0, header_h = g->cells.y0 - g->box.y0, legend_h = g->box.y1 - g->cells.y1;
  auto window = [](int at, int n, int total) {
    const int from = std::clamp((at < 0 ? 0 : at) - n / 2, 0, total - n);
    return std::make_pair(from, from + n);
  };
  SlideCrop c;
  c.stage = g->stage;
  auto rect_of = [&](const SlideCrop& k) {
    return Rect{g->col_x(k.c0) - labels_w, g->row_y(k.r0) - (k.r0 == 0 ? header_h : g->cell_h), g->col_x(k.c1),
                g->row_y(k.r1) + (k.r1 == g->rows ? legend_h : 0)};
  };
  // First at a zoom that makes the cells a little over the minimum; then,
  // as the fit zooms to the tighter side, the other side takes every row
  // (or column) that still fits, so the note names all that shows.
  double zoom = (kSlideMinCellPx + 2) / g->min_cell();
  int rows = 0, cols = 0;
  for (int round = 0; round < 3; ++round) {
    const int fit_cols = std::clamp(static_cast<int>((view_w / zoom - labels_w) / g->cell_w + 1e-9), 1, g->cols);
    const double top = round > 0 && c.r0 > 0 ? g->cell_h : header_h, bottom = round > 0 && c.r1 < g->rows ? 0 : legend_h;
    const int fit_rows = std::clamp(static_cast<int>((view_h / zoom - top - bottom) / g->cell_h + 1e-9), 1, g->rows);
    if (fit_cols == cols && fit_rows == rows) break;
    cols = std::max(cols, fit_cols), rows = std::max(rows, fit_rows);
    std::tie(c.r0, c.r1) = window(row, rows, g->rows);
    std::tie(c.c0, c.c1) = window(col, cols, g->cols);
    const Rect r = rect_of(c);
    zoom = std::min(view_w / r.width(), view_h / r.height());
  }
  c.world = rect_of(c);
  auto span = [](int a, int b) { return std::to_string(a) + (b - 1 > a ? "–" + std::to_string(b - 1) : ""); };
  const bool some_rows = c.r1 - c.r0 < g->rows, some_cols = c.c1 - c.c0 < g->cols;
  if (!some_rows && !some_cols) return std::nullopt;  // the whole grid: a crop would only spill its neighbours
  if (some_rows && some_cols)
    c.note = "rows " + span(c.r0, c.r1) + ", columns " + span(c.c0, c.c1) + " of " + std::to_string(g->rows) + " × " +
             std::to_string(g->cols) + " shown";
  else if (some_rows)
    c.note = "rows " + span(c.r0, c.r1) + " of " + std::to_string(g->rows) + " shown";
  else
    c.note = "columns " + span(c.c0, c.c1) + " of " + std::to_string(g->cols) + " shown";
  return c;
}

}  // namespace model
