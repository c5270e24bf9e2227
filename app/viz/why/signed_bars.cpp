// Draws signed bars (signed_bars.hpp). Lengths share one scale, the largest
// magnitude, so two bars compare by eye; the zero line sits where the
// negative and positive extremes put it.
#include "why/signed_bars.hpp"

#include <algorithm>
#include <cmath>

#include "attn/text/format_number.hpp"
#include "widgets/long_text.hpp"

namespace viz {

std::string share_of(double part, double whole) {
  return whole == 0 ? "" : attn::format_number(100.0 * part / whole, 3) + "%";
}

std::string part_and_share(double part, double whole) {
  const std::string text = attn::format_number(part, 3);
  return whole == 0 ? text : text + " (" + share_of(part, whole) + ")";
}

void draw_bars_caption(const std::string& text, const ThemePalette& pal) {
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.muted));
  wrapped_text(text);
  ImGui::PopStyleColor();
}

void draw_signed_bars(const std::vector<SignedBar>& bars, const ThemePalette& pal, WidgetProbe* probe,
                      const std::string& probe_name) {
  if (bars.empty()) return;
  float label_w = 0, text_w = 0;
  double lo = 0, hi = 0;
  for (const SignedBar& b : bars) {
    label_w = std::max(label_w, ImGui::CalcTextSize(b.label.c_str()).x);
    text_w = std::max(text_w, ImGui::CalcTextSize(b.text.c_str()).x);
    lo = std::min(lo, b.value);
    hi = std::max(hi, b.value);
  }
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // A spacing's margin at the right: text that ends exactly at the edge loses
  // its last glyph to the clip rectangle.
  const float width = ImGui::GetContentRegionAvail().x - gap;
  // The bars get what the labels and texts leave; where that is under 2
  // font sizes (long texts in a narrow inspector at 1024x768), each text
  // goes on a line of its own under its bar, which then takes the width.
  const float min_bar = ImGui::GetFontSize() * 2;
  const bool text_below = label_w + text_w + min_bar + 3 * gap > width;
  const float bar_w = text_below ? std::max(min_bar, width - label_w - 2 * gap) : width - label_w - text_w - 3 * gap;
  const float row_h = line * (text_below ? 2.0f : 1.0f);
  const double span = hi - lo > 0 ? hi - lo : 1.0;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float x0 = start.x + label_w + gap;
  const float zero = x0 + static_cast<float>((0 - lo) / span) * bar_w;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const SignedBar& b = bars[i];
    const float y = start.y + row_h * static_cast<float>(i);
    const Rgba text = b.highlight ? pal.emphasis : pal.text;
    dl->AddText(ImVec2(start.x, y), to_imgui(text), b.label.c_str());
    const float end = x0 + static_cast<float>((b.value - lo) / span) * bar_w;
    const float top = y + line * 0.15f, bottom = y + line * 0.8f;
    const ImVec2 a(std::min(zero, end), top), c(std::max(zero, end), bottom);
    const Rgba fill = b.highlight ? pal.emphasis : (b.value >= 0 ? pal.accent_k : pal.muted);
    dl->AddRectFilled(a, ImVec2(std::max(c.x, a.x + 1), c.y), to_imgui(fill));
    if (probe && !probe_name.empty()) (*probe)[probe_name + "_" + std::to_string(i)] = ImVec4(a.x, a.y, c.x, c.y);
    const ImVec2 at = text_below ? ImVec2(x0, y + line) : ImVec2(x0 + bar_w + gap, y);
    dl->AddText(at, to_imgui(text), b.text.c_str());
  }
  // The zero line, beside the bars only (never through a text line under them).
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const float y = start.y + row_h * static_cast<float>(i);
    dl->AddLine(ImVec2(zero, y), ImVec2(zero, y + line), to_imgui(pal.muted));
  }
  ImGui::Dummy(ImVec2(width, row_h * static_cast<float>(bars.size())));
}

}  // namespace viz
