// Draws the convex-hull window from a HullView: only mapping points to
// pixels and picking the output under the mouse happen here.
#include "explore/hull_panel.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "attn/text/format_number.hpp"
#include "feature/panel_window.hpp"
#include "feature/plot_style.hpp"

namespace viz {
namespace {

ImVec2 im(Vec2d p) { return ImVec2(static_cast<float>(p.x), static_cast<float>(p.y)); }

void draw_head_choice(HullModel& choices, int n_heads, bool follows_view, int head, bool slide) {
  if (follows_view || (slide && n_heads > 1)) {
    ImGui::Text("Head %d (the head the canvas shows)", head);
  } else if (n_heads > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt("head", &choices.head, 0, n_heads - 1);
  }
}

// Light axes through the origin when it is in view.
void draw_axes(ImDrawList* dl, const HullView& v, const Rect& screen) {
  const Vec2d o = hull_to_screen(v, screen, {0, 0});
  if (o.x > screen.x0 && o.x < screen.x1) dl->AddLine(ImVec2(float(o.x), float(screen.y0)), ImVec2(float(o.x), float(screen.y1)), plot::kGrid, 1.5f);
  if (o.y > screen.y0 && o.y < screen.y1) dl->AddLine(ImVec2(float(screen.x0), float(o.y)), ImVec2(float(screen.x1), float(o.y)), plot::kGrid, 1.5f);
}

void draw_plot(const HullView& v, int selected, const Rect& screen) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  dl->AddRectFilled(im({screen.x0, screen.y0}), im({screen.x1, screen.y1}), plot::kBackground);
  dl->AddRect(im({screen.x0, screen.y0}), im({screen.x1, screen.y1}), plot::kFrame);
  draw_axes(dl, v, screen);
  std::vector<ImVec2> polygon;
  for (int j : v.hull) polygon.push_back(im(hull_to_screen(v, screen, v.values[static_cast<size_t>(j)])));
  if (polygon.size() >= 3) dl->AddConvexPolyFilled(polygon.data(), static_cast<int>(polygon.size()), plot::kHullFill);
  if (polygon.size() >= 2) dl->AddPolyline(polygon.data(), static_cast<int>(polygon.size()), plot::kHullEdge, ImDrawFlags_Closed, 2.0f);

  // Lines from the selected output to every value, as thick as the weight.
  const ImVec2 from = im(hull_to_screen(v, screen, v.outputs[static_cast<size_t>(selected)]));
  for (size_t j = 0; j < v.values.size(); ++j) {
    const double w = v.weights(selected, static_cast<Eigen::Index>(j));
    if (w <= 1e-4) continue;
    const int alpha = 60 + static_cast<int>(180 * w);
    dl->AddLine(from, im(hull_to_screen(v, screen, v.values[j])), plot::with_alpha(plot::kSelected, alpha), 1.0f + 7.0f * static_cast<float>(w));
  }
  const bool labels = v.values.size() <= 40;
  for (size_t j = 0; j < v.values.size(); ++j) {
    const ImVec2 p = im(hull_to_screen(v, screen, v.values[j]));
    dl->AddCircleFilled(p, font * 0.32f, plot::kValue);
    if (!labels) continue;
    // Up and to the right of the point, flipped where that would leave the plot.
    const char* label = v.value_labels[j].c_str();
    const float w = ImGui::CalcTextSize(label).x;
    const float x = p.x + font * 0.4f + w > screen.x1 ? p.x - font * 0.4f - w : p.x + font * 0.4f;
    const float y = p.y - font * 1.1f < screen.y0 ? p.y + font * 0.2f : p.y - font * 1.1f;
    dl->AddText(ImVec2(x, y), plot::kValue, label);
  }
  for (size_t i = 0; i < v.outputs.size(); ++i) {
    const ImVec2 p = im(hull_to_screen(v, screen, v.outputs[i]));
    const bool out = v.outside[i] > 1e-9;
    dl->AddCircleFilled(p, font * 0.24f, out ? plot::kOutside : plot::kOutput);
    if (static_cast<int>(i) == selected) dl->AddCircle(p, font * 0.5f, plot::kSelected, 0, 2.5f);
  }
}

// "= 0.42 × top + 0.2 × right + …": the selected output as a weighted sum.
std::string weighted_sum_text(const HullView& v, int selected) {
  std::string text = "=";
  int terms = 0;
  for (size_t j = 0; j < v.values.size(); ++j) {
    const double w = v.weights(selected, static_cast<Eigen::Index>(j));
    if (w == 0) continue;
    if (++terms > 8) {
      text += " + …";
      break;
    }
    text += (terms > 1 ? " + " : " ") + attn::format_number(w, 2) + " × " + v.value_labels[j];
  }
  return text;
}

// Height of the readout below the plot, so the plot can take the rest.
float readout_height(const HullView& v, const std::string& sum, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float h = ImGui::GetFrameHeightWithSpacing() + ImGui::CalcTextSize(sum.c_str(), nullptr, false, width).y +
            ImGui::GetTextLineHeightWithSpacing() + 2 * style.ItemSpacing.y;
  if (!v.caveat.empty()) h += ImGui::CalcTextSize(v.caveat.c_str(), nullptr, false, width).y + style.ItemSpacing.y;
  return h;
}

// The selected output as a choice, its weighted sum, then inside or not.
void draw_readout(const HullView& v, int& selected, const std::string& sum, bool slide) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  if (slide) ImGui::Text("output of '%s'", v.output_labels[static_cast<size_t>(selected)].c_str());
  else if (ImGui::BeginCombo("##output", ("output of '" + v.output_labels[static_cast<size_t>(selected)] + "'").c_str())) {
    for (size_t i = 0; i < v.output_labels.size(); ++i)
      if (ImGui::Selectable(v.output_labels[i].c_str(), static_cast<int>(i) == selected)) selected = static_cast<int>(i);
    ImGui::EndCombo();
  }
  ImGui::TextWrapped("%s", sum.c_str());
  const double d = v.outside[static_cast<size_t>(selected)];
  if (d > 1e-9) ImGui::TextColored(plot::to_vec4(plot::kOutside), "outside the hull by %s", attn::format_number(d, 3).c_str());
  else ImGui::TextColored(plot::to_vec4(plot::kValue), "inside the hull (weights are ≥ 0 and sum to 1)");
}

}  // namespace

void draw_hull_panel(const HullView& view, HullModel& choices, int n_heads, bool head_follows_view, bool* open,
                     ImVec2 canvas_pos, ImVec2 canvas_size, WidgetProbe* probe, bool slide) {
  const float font = ImGui::GetFontSize();
  const ImVec2 size = slide ? canvas_size : first_window_size(canvas_size, font * 30, font * 33, font * 33);
  const ImVec2 pos = slide ? canvas_pos : ImVec2(canvas_pos.x + canvas_size.x - size.x - font, canvas_pos.y + font);
  if (!begin_panel("Convex hull of the values", open, pos, size, probe, "panel.hull", slide)) return;
  draw_head_choice(choices, n_heads, head_follows_view, view.head, slide);
  if (!view.ok) {
    ImGui::TextWrapped("%s", view.reason.c_str());
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("Values (green) of head %d, their convex hull (blue) and every output (orange). Click an "
                     "output to see its weights as lines.", view.head);
  // The plot takes the room the readout below it leaves.
  choices.selected = std::clamp(choices.selected, 0, static_cast<int>(view.outputs.size()) - 1);
  const std::string sum = weighted_sum_text(view, choices.selected);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float readout = readout_height(view, sum, avail.x);
  const ImVec2 plot_size(avail.x, std::max(font * 8, avail.y - readout));
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("plot", plot_size);
  const Rect screen{top.x, top.y, top.x + plot_size.x, top.y + plot_size.y};
  if (probe) (*probe)["hull.plot"] = ImVec4(top.x, top.y, top.x + plot_size.x, top.y + plot_size.y);
  if (ImGui::IsItemClicked()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int hit = output_at(view, screen, {m.x, m.y}, font);
    if (hit >= 0) choices.selected = hit;
  }
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int hit = output_at(view, screen, {m.x, m.y}, font);
    if (hit >= 0) ImGui::SetTooltip("output of '%s'", view.output_labels[static_cast<size_t>(hit)].c_str());
  }
  draw_plot(view, choices.selected, screen);
  draw_readout(view, choices.selected, sum, slide);
  if (!view.caveat.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, plot::to_vec4(plot::kOutside));
    ImGui::TextWrapped("%s", view.caveat.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

}  // namespace viz
