// Loss and accuracy against training steps, drawn live. Loss is on a log
// scale (it falls by orders of magnitude; a linear axis hides the later,
// interesting part); accuracy on 0..100%. A vertical line marks the snapshot
// shown; clicking a curve shows the snapshot nearest that step.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "train/train_view.hpp"

namespace viz {
namespace {

struct Plot {
  ImVec2 a, b;  // the plotting rectangle
  double x0, x1, y0, y1;
  ImVec2 at(double x, double y) const {
    const double u = x1 > x0 ? (x - x0) / (x1 - x0) : 0;
    const double v = y1 > y0 ? (y - y0) / (y1 - y0) : 0;
    return {a.x + static_cast<float>(u) * (b.x - a.x), b.y - static_cast<float>(std::clamp(v, 0.0, 1.0)) * (b.y - a.y)};
  }
};

void frame_plot(ImDrawList* list, const Plot& p, const char* title, const char* lo, const char* hi, const ThemePalette& pal) {
  list->AddRect({p.a.x - 1, p.a.y - 1}, {p.b.x + 1, p.b.y + 1}, to_imgui(pal.grid_frame));
  list->AddText({p.a.x + 4, p.a.y + 2}, to_imgui(pal.title), title);
  const float h = ImGui::GetFontSize();
  list->AddText({p.b.x + 4, p.a.y - h / 2}, to_imgui(pal.muted), hi);
  list->AddText({p.b.x + 4, p.b.y - h / 2}, to_imgui(pal.muted), lo);
}

}  // namespace

float draw_train_curves(const TrainSession& session, const TrainGrids& grids, TrainUi& ui, float width,
                        const ThemePalette& pal, WidgetProbe* probe, float plot_h) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float label_w = ImGui::CalcTextSize("0.0022 ").x;
  if (plot_h <= 0) plot_h = std::max(ImGui::GetFontSize() * 5, 60.0f);
  const float gap = ImGui::GetFontSize() * 0.8f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const std::vector<double>& losses = session.losses();
  const std::vector<TrainSnapshot>& snaps = session.snapshots();
  const double first = session.first_step();
  const double last = std::max(first + 1, static_cast<double>(std::max(session.steps(), session.max_steps())));

  // Loss, log scale between the smallest and largest loss seen.
  double lo = 1e300, hi = 0;
  for (double l : losses) if (std::isfinite(l) && l > 0) lo = std::min(lo, l), hi = std::max(hi, l);
  for (const TrainSnapshot& s : snaps) if (std::isfinite(s.held_out.loss) && s.held_out.loss > 0) lo = std::min(lo, s.held_out.loss), hi = std::max(hi, s.held_out.loss);
  if (hi <= 0) lo = 0.01, hi = 10;
  lo = std::max(lo, 1e-4);
  Plot loss{origin, {origin.x + width - label_w, origin.y + plot_h}, first, last, std::log10(lo), std::log10(hi) + 1e-9};
  char lo_text[32], hi_text[32];
  std::snprintf(lo_text, sizeof lo_text, "%.2g", lo);
  std::snprintf(hi_text, sizeof hi_text, "%.2g", hi);
  frame_plot(list, loss, "loss (training batch, log scale)", lo_text, hi_text, pal);
  if (losses.size() > 1) {
    // At most one point per pixel column: a long run stays cheap to draw.
    const size_t n = losses.size();
    const size_t stride = std::max<size_t>(1, n / static_cast<size_t>(std::max(1.0f, loss.b.x - loss.a.x)));
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < n; i += stride)
      pts.push_back(loss.at(first + static_cast<double>(i + 1), std::log10(std::max(losses[i], 1e-4))));
    list->AddPolyline(pts.data(), static_cast<int>(pts.size()), to_imgui(pal.step), 0, 1.5f);
  }

  // Held-out accuracy at each snapshot.
  const ImVec2 acc_origin{origin.x, origin.y + plot_h + gap};
  Plot acc{acc_origin, {acc_origin.x + width - label_w, acc_origin.y + plot_h}, first, last, 0, 1};
  frame_plot(list, acc, "held-out accuracy", "0%", "100%", pal);
  if (snaps.size() > 1) {
    std::vector<ImVec2> pts;
    for (const TrainSnapshot& s : snaps) pts.push_back(acc.at(s.step, s.held_out.accuracy));
    list->AddPolyline(pts.data(), static_cast<int>(pts.size()), to_imgui(pal.right), 0, 2.0f);
  }
  // The snapshot shown.
  if (grids.snapshot >= 0)
    for (const Plot* p : {&loss, &acc}) {
      const float x = p->at(grids.step, 0).x;
      list->AddLine({x, p->a.y}, {x, p->b.y}, to_imgui(pal.title), 1.0f);
    }
  // A click on either plot shows the snapshot nearest that step.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("##curves", {std::max(1.0f, width - label_w), 2 * plot_h + gap});
  if (probe) (*probe)["train_curves"] = ImVec4(origin.x, origin.y, origin.x + width - label_w, origin.y + 2 * plot_h + gap);
  if (ImGui::IsItemActive() && !snaps.empty()) {
    const double u = (ImGui::GetIO().MousePos.x - loss.a.x) / std::max(1.0f, loss.b.x - loss.a.x);
    const double step = first + std::clamp(u, 0.0, 1.0) * (last - first);
    size_t best = 0;
    for (size_t i = 0; i < snaps.size(); ++i)
      if (std::abs(snaps[i].step - step) < std::abs(snaps[best].step - step)) best = i;
    ui.shown = best + 1 == snaps.size() && session.running() ? -1 : static_cast<int>(best);
  }
  return 2 * plot_h + gap;
}

}  // namespace viz
