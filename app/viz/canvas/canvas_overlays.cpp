// Canvas overlays in screen space (not zoomed): what the animation is doing
// now, the running products of a cell step, compute errors, view buttons and
// a one-line hint of the mouse controls (or why numbers are hidden), so a new
// user is never left guessing.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "canvas/canvas_parts.hpp"
#include "model/framing/slide_focus.hpp"
#include "widgets/fit_label.hpp"
#include "widgets/notice_lines.hpp"
#include "canvas/colour_legends.hpp"
#include "model_names.hpp"
#include "model/animation/stage_roles.hpp"
#include "attn/text/format_number.hpp"

namespace viz {
namespace {

// Squares for the products of a cell step: done ones coloured by value (on
// the scale of the row being computed), the rest empty, then the running sum.
void product_strip(ImDrawList* list, ImVec2 at, const CanvasData& d, float unit, const ThemePalette& pal) {
  const attn::Explanation& e = *d.active_cell;
  if (e.steps.empty() || e.steps[0].terms.empty()) return;
  const std::vector<attn::Term>& terms = e.steps[0].terms;
  const int stage = d.frame.active_stage;
  const ColourScale& scale = d.scales[static_cast<size_t>(stage)];
  const int n = std::min<int>(static_cast<int>(terms.size()), 24);
  double sum = 0;
  for (int t = 0; t < n; ++t) {
    const ImVec2 a(at.x + t * (unit + 3), at.y), b(a.x + unit, a.y + unit);
    if (t < d.frame.terms_done) {
      sum += terms[static_cast<size_t>(t)].value;
      list->AddRectFilled(a, b, to_imgui(colour_of(scale, d.frame.active_row, terms[static_cast<size_t>(t)].value)));
    }
    const bool now = t == d.frame.terms_done - 1;
    list->AddRect(a, b, to_imgui(now ? pal.step : pal.panel_border), 0, 0, now ? 2.0f : 1.0f);
  }
  const std::string s = "→ Σ = " + attn::format_number(sum, 4);
  list->AddText({at.x + n * (unit + 3) + 6, at.y + (unit - ImGui::GetFontSize()) / 2}, to_imgui(pal.text), s.c_str());
}

}  // namespace

void paint_current_term(const PaintContext& ctx, const PipelineLayout& layout, const Frame& f) {
  if (f.terms_done <= 0 || f.active_stage < 0 || f.active_row < 0 || f.active_col < 0) return;
  const ProductOperands ops = product_operands(ctx.trace, f.active_stage);
  if (!ops.valid()) return;
  const int t = f.terms_done - 1;
  const ImU32 term = to_imgui(ctx.palette.step);
  if (const GridBox* a = layout.find(ops.a)) paint_region(ctx, *a, f.active_row, f.active_row + 1, t, t + 1, term, 3.5f);
  if (const GridBox* b = layout.find(ops.b)) {
    if (ops.b_transposed) paint_region(ctx, *b, f.active_col, f.active_col + 1, t, t + 1, term, 3.5f);
    else paint_region(ctx, *b, t, t + 1, f.active_col, f.active_col + 1, term, 3.5f);
  }
}

namespace {

constexpr float kPad = 10;

float panel_width(float canvas_width, bool presenting = false) {
  if (presenting) return std::max(100.0f, canvas_width - 2 * kPad);
  // Room on the right for the Fit button and the zoom percentage.
  const float buttons = ImGui::CalcTextSize("Fit (F)  100%").x + 3 * ImGui::GetStyle().FramePadding.x + 2 * kPad;
  return std::max(100.0f, std::min(canvas_width - 2 * kPad - buttons, 60 * ImGui::GetFontSize()));
}

// Never offers an action that is not available (no undo right after opening).
std::string error_text(const CanvasData& d) {
  return "Your last edit cannot be computed: " + d.model.error() + "\nShowing the last state that worked. " +
         (d.can_undo ? "Fix the value in the editor, or press Ctrl+Z to undo." : "Fix the value in the editor.");
}

using Hints = const char* const[4];

constexpr Hints kMouseHints = {"wheel: zoom · right-drag: pan · click: pin a cell · Alt+drag: edit an input",
                               "wheel: zoom · right-drag: pan · click: pin a cell", "wheel: zoom · right-drag: pan", ""};
constexpr Hints kPaintHints = {"painting the mask: click or drag on a score or weight grid",
                               "painting the mask: drag on scores or weights", "painting the mask", ""};
// Cells too small for their numbers show none, so say why and what to do.
constexpr Hints kHiddenNumbersHints = {"numbers hidden at this zoom: wheel to zoom in, or hover a cell for its value",
                                       "numbers hidden at this zoom: zoom in, or hover a cell",
                                       "numbers hidden: zoom in or hover", ""};

// The longest of `options` no wider than `room` (the last is "").
const char* longest_fitting(const Hints& options, float room) {
  for (const char* h : options)
    if (ImGui::CalcTextSize(h).x <= room) return h;
  return "";
}

// The bottom line: mouse controls, or what mask painting does, or why the
// numbers are hidden (narrow windows, large fonts: the longest that fits
// left of the legend).
void paint_hint_line(ImVec2 pos, ImVec2 size, const AppState& state, bool numbers_hidden, float legend_w) {
  const ThemePalette& pal = palette(state.view.colour.theme);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  float right = pos.x + size.x - legend_w - 2 * kPad;
  float y = pos.y + size.y - line - 4;
  const Hints& options = state.paint_mask ? kPaintHints : numbers_hidden ? kHiddenNumbersHints : kMouseHints;
  const char* hint = longest_fitting(options, right - pos.x - kPad);
  if (numbers_hidden && !state.paint_mask && !*hint) {
    // No room beside the legend: the line above it, on a backing that reads over grids.
    hint = longest_fitting(kHiddenNumbersHints, size.x - 4 * kPad);
    right = pos.x + size.x - kPad;
    y -= line;
    const ImVec2 text = ImGui::CalcTextSize(hint);
    if (*hint)
      ImGui::GetWindowDrawList()->AddRectFilled({pos.x + kPad / 2, y - 2}, {pos.x + 1.5f * kPad + text.x, y + text.y + 2},
                                                to_imgui(pal.panel), 4);
  }
  ImGui::SetCursorScreenPos({pos.x + kPad, y});
  ImGui::PushClipRect({pos.x, pos.y}, {right, pos.y + size.y}, true);
  ImGui::TextColored(to_imvec4(pal.muted), "%s", hint);
  ImGui::PopClipRect();
}

// Under a slide's grids: what the slide leaves out to keep them readable.
// A slide's note in one line, or two split where one of its parts ends
// ("Not shown: masked" · "rows 10–29, columns 0–15 of 33 × 33 shown"), each
// cut to the width if it must be.
std::vector<std::string> slide_note_lines(const std::string& note, float width) {
  if (note.empty()) return {};
  if (ImGui::CalcTextSize(note.c_str()).x <= width) return {note};
  const std::size_t at = note.rfind(" · ");
  if (at == std::string::npos) return {fit_label(note, width)};
  return {fit_label(note.substr(0, at), width), fit_label(note.substr(at + std::string(" · ").size()), width)};
}

void slide_note_line(ImVec2 pos, ImVec2 size, const CanvasData& d, const AppState& state) {
  if (d.slide_note.empty()) return;
  const ThemePalette& pal = palette(state.view.colour.theme);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const std::vector<std::string> lines = slide_note_lines(d.slide_note, size.x - 2 * kPad);
  ImGui::SetCursorScreenPos({pos.x + kPad, pos.y + size.y - kPad - line * static_cast<float>(lines.size())});
  ImGui::BeginGroup();
  for (const std::string& l : lines) ImGui::TextColored(to_imvec4(pal.muted), "%s", l.c_str());
  ImGui::EndGroup();
  probe_item(d.probe, "slide:note");
}

}  // namespace

float status_panel_height(const CanvasData& d, float canvas_width) {
  const float line = ImGui::GetTextLineHeightWithSpacing(), spacing = ImGui::GetStyle().ItemSpacing.y;
  const float wrap = panel_width(canvas_width, d.state.view.presentation) - 2 * kPad;
  // A line of the panel as drawn below: wrapped at the panel's width, each
  // wrapped line counted (a long note counted as one spilled onto the grids).
  const auto wrapped = [&](const std::string& text) {
    return ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + spacing;
  };
  const bool strip = d.active_cell && d.frame.terms_total > 0;
  // At least two detail lines, so a longer caption later in the animation fits too.
  float height = wrapped(d.caption.status) +
                 std::max(ImGui::CalcTextSize(d.caption.detail.c_str(), nullptr, false, wrap).y, 2 * line) + 2 * kPad +
                 (strip ? line * 1.3f : 0);
  const std::vector<std::string>& notes = d.model.trace().notes;
  for (size_t i = 0; i < notes.size() && i < 2; ++i) height += wrapped("note: " + notes[i]);
  if (!d.model.error().empty()) height += ImGui::CalcTextSize(error_text(d).c_str(), nullptr, false, wrap).y + kPad;
  if (!d.background) height += notice_lines_height(d.state, wrap);  // not in an exported picture
  if (!d.opening.empty()) height += ImGui::GetFrameHeightWithSpacing();
  // computing_line(): a line that says what the grids show, and the progress bar.
  if (d.model.computes_in_background()) height += line + ImGui::GetFrameHeightWithSpacing();
  return height;
}

Rect grid_area(ImVec2 pos, ImVec2 size, const CanvasData& d, const AppState& state) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Cell steps add a row of product squares: keep room for it all along.
  const float strip = state.granularity == Granularity::Cell ? 1.3f * line : 0;
  const float caption = 2 * kPad + std::max(status_panel_height(d, size.x), 3 * line + strip);
  // A slide has the lesson's text beside it: the grids take the whole canvas.
  if (shows_slide(state, d.lessons) && d.model.error().empty()) {
    const float note_lines = static_cast<float>(slide_note_lines(d.slide_note, size.x - 2 * kPad).size());
    return {pos.x + kPad, pos.y + kPad, pos.x + size.x - kPad,
            pos.y + size.y - kPad - (d.slide_note.empty() ? 0 : note_lines * ImGui::GetTextLineHeightWithSpacing() + kPad)};
  }
  if (d.grids_only && d.model.error().empty())
    return {pos.x + kPad, pos.y + kPad, pos.x + size.x - kPad, pos.y + size.y - kPad - line - 8};
  if (state.view.presentation) {
    // Presenting, the caption is large and at the bottom, under the grids;
    // only the Fit button stays at the top.
    const float top = ImGui::GetFrameHeight() + kPad;
    return {pos.x, pos.y + top, pos.x + size.x, std::max(pos.y + top + 20, pos.y + size.y - caption)};
  }
  const float bottom = 2 * line + 8;  // the hint line, and the line above it when the hint moves up
  return {pos.x, pos.y + caption, pos.x + size.x, std::max(pos.y + caption + 20, pos.y + size.y - bottom)};
}

void cancelled_line(const TraceModel& model, AppState& state, const ThemePalette& pal) {
  // The same two rows as computing_line(), so nothing moves when it replaces it.
  ImGui::TextColored(to_imvec4(pal.warning), "%s", model.cancelled().c_str());
  if (ImGui::Button("Compute again##compute")) state.compute_again = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Compute the current scenario's trace again, in the background");
}

void computing_line(const TraceModel& model, AppState& state, float width, const ThemePalette& pal) {
  const float p = static_cast<float>(model.progress());
  char label[64];
  // Before a document's first trace there is no previous result to show,
  // and nothing was edited: the file is being computed, and its preview
  // (the head on screen) may already be drawn.
  const bool edit = model.has_trace() && !model.preview();
  std::snprintf(label, sizeof label, edit ? "Computing your edit: %.0f%%" : "Computing: %.0f%% of the heads", p * 100);
  if (edit) ImGui::TextColored(to_imvec4(pal.warning), "%s", "The grids show the previous result until it is ready.");
  if (model.preview())
    ImGui::TextColored(to_imvec4(pal.warning), "Head %d is drawn first; the other heads, concat and the output follow.",
                       model.preview_head());
  const float cancel_w = ImGui::CalcTextSize("Cancel").x + 2 * ImGui::GetStyle().FramePadding.x;
  // The track in the panel's border colour: the theme's frame colour is the
  // panel's own (white on white), which hid how much is left.
  ImGui::PushStyleColor(ImGuiCol_FrameBg, to_imvec4(pal.panel_border));
  ImGui::ProgressBar(p, {std::max(40.0f, width - cancel_w - ImGui::GetStyle().ItemSpacing.x), 0}, label);
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::Button("Cancel##compute")) state.cancel_compute = true;
}

namespace {

// A large file being read in the background, with Cancel.
void opening_line(const std::string& path, AppState& state, const ThemePalette& pal) {
  const std::string name = std::filesystem::path(path).filename().string();
  ImGui::TextColored(to_imvec4(pal.warning), "Opening %s... the grids show the current document until it is read.",
                     name.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Cancel##open")) state.cancel_open = true;
}

}  // namespace

// View buttons, top right: Fit and the zoom.
static void fit_button(ImVec2 pos, ImVec2 size, AppState& state);

void paint_overlays(ImVec2 pos, ImVec2 size, const CanvasData& d, AppState& state, bool numbers_hidden) {
  // A slide: no status panel (the lesson's text tells the story), no
  // buttons, no hints; a scene that cannot be computed still says why.
  if (shows_slide(state, d.lessons) && d.model.error().empty()) {
    slide_note_line(pos, size, d, state);
    return;
  }
  if (d.grids_only && d.model.error().empty()) {
    ImGui::SetCursorScreenPos({pos.x + size.x - colour_legends_width(), pos.y + size.y - ImGui::GetTextLineHeightWithSpacing() - 4});
    colour_legends(state.view.colour);
    return;
  }
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float pad = kPad;
  const float width = panel_width(size.x, state.view.presentation);
  const ThemePalette& pal = palette(state.view.colour.theme);

  // Status: which step, and what it does (with the arithmetic). An invalid
  // edit is said inside the same panel (red), which the fit keeps clear of.
  const bool strip = d.active_cell && d.frame.terms_total > 0;
  const std::vector<std::string>& notes = d.model.trace().notes;
  const bool error = !d.model.error().empty();
  const float panel_h = status_panel_height(d, size.x);
  const bool bottom = state.view.presentation;
  const ImVec2 a(pos.x + pad, bottom ? pos.y + size.y - pad - panel_h : pos.y + pad), b(a.x + width, a.y + panel_h);
  list->AddRectFilled(a, b, to_imgui(error ? pal.error_panel : pal.panel), 6);
  list->AddRect(a, b, to_imgui(error ? pal.error_border : pal.panel_border), 6, 0, error ? 2.0f : 1.0f);
  ImGui::SetCursorScreenPos({a.x + pad, a.y + pad});
  ImGui::BeginGroup();  // keeps every line indented to the panel
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 2 * pad);
  if (error) {
    ImGui::TextColored(to_imvec4(pal.error), "%s", error_text(d).c_str());
    ImGui::Dummy({1, pad - ImGui::GetStyle().ItemSpacing.y});
  }
  if (!d.opening.empty()) opening_line(d.opening, state, pal);
  if (d.model.computing()) computing_line(d.model, state, width - 2 * pad, pal);
  else if (!d.model.cancelled().empty()) cancelled_line(d.model, state, pal);
  ImGui::TextColored(to_imvec4(pal.text), "%s", d.caption.status.c_str());
  ImGui::TextWrapped("%s", d.caption.detail.c_str());
  if (strip) product_strip(list, {a.x + pad, ImGui::GetCursorScreenPos().y + 2}, d, line * 0.95f, pal);
  if (strip) ImGui::Dummy({1, line * 1.3f});
  // As many as status_panel_height() makes room for.
  for (size_t i = 0; i < notes.size() && i < 2; ++i) ImGui::TextColored(to_imvec4(pal.warning), "note: %s", notes[i].c_str());
  if (!d.background) draw_notice_lines(state, d.probe);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  // --dump-layout: the box and what was written in it, so a test can tell
  // that the text stays inside (a wrapped note once spilled onto the grids).
  probe_item(d.probe, "caption:text");
  if (d.probe) (*d.probe)["caption:box"] = ImVec4(a.x, a.y, b.x, b.y);

  // An exported picture or animation shows no control and no mouse hint
  // (a GIF carried the "Fit (F) 19%" button and "numbers hidden" hint);
  // the colour legends stay.
  const bool exported = d.background.has_value();
  if (exported && bottom) return;
  if (!exported) fit_button(pos, size, state);
  if (bottom) return;  // presenting: each grid has its legend; no mouse hints for the room
  const float legend_w = colour_legends_width();
  if (!exported) paint_hint_line(pos, size, state, numbers_hidden, legend_w);
  ImGui::SetCursorScreenPos({pos.x + size.x - legend_w, pos.y + size.y - line - 4});
  colour_legends(state.view.colour);
}

static void fit_button(ImVec2 pos, ImVec2 size, AppState& state) {
  const float pad = kPad;
  // Measured with the zoom as shown: "16016%" was cut off by the edge when
  // the room was measured for "100%".
  char zoom[32];
  std::snprintf(zoom, sizeof zoom, "%.0f%%", state.view.transform.zoom * 100);
  const float buttons = ImGui::CalcTextSize("Fit (F)").x + std::max(ImGui::CalcTextSize("100%").x, ImGui::CalcTextSize(zoom).x) +
                        2 * ImGui::GetStyle().FramePadding.x + ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetCursorScreenPos({pos.x + size.x - buttons - pad, pos.y + pad});
  if (ImGui::Button("Fit (F)")) state.view.fit_pending = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Zoom and pan so the whole pipeline fits the window");
  ImGui::SameLine();
  ImGui::TextUnformatted(zoom);
}

}  // namespace viz
