// Draws the why-scale window from a computed WhyScaleResult: controls, two
// histograms on the same axis (unscaled in orange, scaled in blue), their
// variances, and two rows of 8 softmax weights as coloured cells.
#include "explore/why_scale_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "attn/explain/explain.hpp"
#include "feature/panel_window.hpp"
#include "feature/plot_style.hpp"
#include "model_names.hpp"
#include "model/layout/cell_format.hpp"
#include "model/colour/colour_scale.hpp"

namespace viz {
namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// One histogram: bars scaled to `tallest` (shared by both plots, so heights
// compare), the 0 line, the axis ends, and how many samples fell off it.
void draw_histogram(const attn::Histogram& h, int tallest, ImU32 colour, const std::string& title, ImVec2 size,
                    WidgetProbe* probe, const char* probe_name) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  const ImVec2 p0(top.x, top.y + line * 1.3f), p1(top.x + size.x, top.y + size.y - line * 1.3f);
  if (probe) (*probe)[probe_name] = ImVec4(p0.x, p0.y, p1.x, p1.y);
  dl->AddText(top, colour, title.c_str());
  dl->AddRectFilled(p0, p1, plot::kBackground);
  const float w = (p1.x - p0.x) / static_cast<float>(h.counts.size());
  for (size_t b = 0; b < h.counts.size(); ++b) {
    if (h.counts[b] == 0) continue;
    const float frac = static_cast<float>(h.counts[b]) / static_cast<float>(std::max(1, tallest));
    const float x = p0.x + w * static_cast<float>(b);
    dl->AddRectFilled(ImVec2(x, p1.y - frac * (p1.y - p0.y)), ImVec2(x + std::max(1.0f, w - 1), p1.y), colour);
  }
  const float zero = p0.x + static_cast<float>((0 - h.lo) / (h.hi - h.lo)) * (p1.x - p0.x);
  dl->AddLine(ImVec2(zero, p0.y), ImVec2(zero, p1.y), plot::kAxis);
  dl->AddRect(p0, p1, plot::kFrame);
  dl->AddText(ImVec2(p0.x, p1.y + 2), plot::kText, fmt("%g", h.lo).c_str());
  plot::centred_text(dl, zero, p1.y + 2, plot::kText, "0");
  const std::string hi = fmt("%g", h.hi);
  dl->AddText(ImVec2(p1.x - ImGui::CalcTextSize(hi.c_str()).x, p1.y + 2), plot::kText, hi.c_str());
  const int off = h.below + h.above;
  if (off > 0) {
    const std::string note = std::to_string(off) + " off the axis";
    dl->AddText(ImVec2(p1.x - ImGui::CalcTextSize(note.c_str()).x - 4, p0.y + 2), plot::kOutside, note.c_str());
  }
}

// Eight weights as cells shaded like the canvas's probability grids.
void draw_weight_row(const char* label, const std::vector<double>& weights, ImU32 colour, ColourmapId map) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ColourScale scale;  // 0..1, like a probability grid per grid
  scale.kind = attn::ValueKind::Probability;
  scale.map = map;
  const float font = ImGui::GetFontSize(), h = font * 1.6f;
  // Cells shrink (down to 2 font sizes) to leave room for "max 0.996" on the line.
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("max 0.000").x - ImGui::GetStyle().ItemSpacing.x;
  const float cell = std::clamp(room / static_cast<float>(std::max<size_t>(1, weights.size())), font * 2.0f, font * 2.6f);
  const bool max_fits = cell * static_cast<float>(weights.size()) <= room;
  ImGui::TextColored(plot::to_vec4(colour), "%s", label);
  const ImVec2 start = ImGui::GetCursorScreenPos();
  for (size_t j = 0; j < weights.size(); ++j) {
    const Rgba c = colour_of(scale, 0, weights[j]);
    const Rgba t = text_colour_on(c);
    const ImVec2 a(start.x + cell * static_cast<float>(j), start.y), b(a.x + cell - 2, a.y + h);
    dl->AddRectFilled(a, b, IM_COL32(c.r, c.g, c.b, 255));
    // The most precise text that fits the cell; weights below 0.005 may read "≈0".
    std::string text;
    for (const std::string& candidate : compact_candidates(weights[j], 2, 0.005)) {
      text = candidate;
      if (ImGui::CalcTextSize(text.c_str()).x <= cell - 6) break;
    }
    plot::centred_text(dl, (a.x + b.x) / 2, a.y + (h - ImGui::GetTextLineHeight()) / 2, IM_COL32(t.r, t.g, t.b, 255), text);
  }
  ImGui::Dummy(ImVec2(cell * static_cast<float>(weights.size()), h));
  const double top = weights.empty() ? 0 : *std::max_element(weights.begin(), weights.end());
  if (max_fits) ImGui::SameLine();
  ImGui::Text("max %s", fmt("%.3f", top).c_str());
}

void draw_controls(WhyScaleInputs& in, bool narrow) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * (narrow ? 12 : 16));
  ImGui::SliderInt("d_k", &in.d_k, WhyScaleInputs::kMinDk, WhyScaleInputs::kMaxDk, "%d", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Width of q and k; drag to watch the unscaled spread grow");
  if (!narrow) ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * (narrow ? 12 : 10));
  ImGui::SliderInt("pairs", &in.samples, WhyScaleInputs::kMinSamples, WhyScaleInputs::kMaxSamples, "%d",
                   ImGuiSliderFlags_Logarithmic);
  if (ImGui::Button("New random vectors")) ++in.seed;
  ImGui::SameLine();
  ImGui::Checkbox("Fit axis to ±4√d_k", &in.fit_axis);
}

}  // namespace

void draw_why_scale_panel(WhyScaleInputs& inputs, const WhyScaleResult& r, bool* open, ImVec2 canvas_pos,
                          ImVec2 canvas_size, WidgetProbe* probe, ColourmapId probability_map, bool slide) {
  const float font = ImGui::GetFontSize();
  const ImVec2 size = slide ? canvas_size : first_window_size(canvas_size, font * 34, font * 29, font * 44);
  const ImVec2 pos = slide ? canvas_pos : ImVec2(canvas_pos.x + font, canvas_pos.y + font);
  if (!begin_panel("Why scale by 1/√d_k", open, pos, size, probe, "panel.why_scale", slide)) return;
  ImGui::TextWrapped("q and k have d_k random components with mean 0 and variance 1. Their dot product adds "
                     "d_k such products, so its variance is about d_k; dividing by √d_k brings it back to 1.");
  const bool narrow = ImGui::GetContentRegionAvail().x < font * 30;
  if (slide) ImGui::Text("d_k = %d, %d pairs", inputs.d_k, inputs.samples);  // the sliders are the desk's
  else draw_controls(inputs, narrow);
  if (r.raw.values.empty()) {
    ImGui::TextDisabled("Sampling...");
    ImGui::End();
    return;
  }
  const double d_k = r.inputs.d_k;
  ImGui::PushStyleColor(ImGuiCol_Text, plot::to_vec4(plot::kUnscaled));
  // Short lines: ImGui wraps after a '.', which would split a number.
  ImGui::TextWrapped("var(q·k) = %s = %s × d_k", fmt("%.2f", r.raw.stats.variance).c_str(),
                     fmt("%.3f", r.raw.stats.variance / d_k).c_str());
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, plot::to_vec4(plot::kScaled));
  ImGui::TextWrapped("var(q·k / √d_k) = %s, near 1", fmt("%.3f", r.scaled.stats.variance).c_str());
  ImGui::PopStyleColor();

  // Side by side when the window is wide enough, else one above the other.
  const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 plot_size(narrow ? avail : (avail - gap) / 2, font * (narrow ? 7 : 10));
  draw_histogram(r.raw_hist, r.tallest_bin, plot::kUnscaled, "q·k (unscaled)", plot_size, probe, "why_scale.unscaled");
  if (!narrow) ImGui::SameLine();
  draw_histogram(r.scaled_hist, r.tallest_bin, plot::kScaled, "q·k / √d_k", plot_size, probe, "why_scale.scaled");

  ImGui::Separator();
  ImGui::TextWrapped("Softmax of %d of these scores (one query, %d keys):", WhyScaleResult::kRow, WhyScaleResult::kRow);
  draw_weight_row("unscaled", r.weights_raw, plot::kUnscaled, probability_map);
  draw_weight_row("scaled by 1/√d_k", r.weights_scaled, plot::kScaled, probability_map);
  ImGui::TextWrapped("Over all %d rows of %d: the largest weight averages %s unscaled, %s scaled.",
                     static_cast<int>(r.raw.values.size()) / WhyScaleResult::kRow, WhyScaleResult::kRow,
                     fmt("%.2f", r.mean_max_raw).c_str(), fmt("%.2f", r.mean_max_scaled).c_str());
  ImGui::End();
}

}  // namespace viz
