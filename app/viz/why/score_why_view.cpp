// Draws a score's split (score_why_view.hpp) with signed bars. Long lists
// (d_k = 128) show the largest parts and say how many smaller ones there are,
// so the section stays readable in a narrow inspector.
#include "why/score_why_view.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "attn/text/format_number.hpp"
#include "why/signed_bars.hpp"
#include "widgets/long_text.hpp"

namespace viz {

namespace {

constexpr std::size_t kShown = 8;       // parts listed before "… and N smaller"
constexpr std::size_t kSlideShown = 4;  // on a slide, read from the back of the room

std::string num(double v) { return attn::format_number(v, 3); }

void more_line(std::size_t total, std::size_t shown, const ThemePalette& pal) {
  if (total > shown)
    ImGui::TextColored(to_imvec4(pal.muted), "… and %zu smaller", total - shown);
}

void by_dimension(const attn::ScoreSplit& s, const ThemePalette& pal, WidgetProbe* probe, bool slide) {
  const std::size_t shown = std::min(slide ? kSlideShown : kShown, s.by_dimension.size());
  draw_bars_caption(slide ? "By dimension, q[d] × k[d]:" : "By dimension, q[d] × k[d], largest first:", pal);
  std::vector<SignedBar> bars;
  for (std::size_t n = 0; n < shown; ++n) {
    const attn::DimensionTerm& d = s.by_dimension[n];
    bars.push_back({"d " + std::to_string(d.dim), d.term, part_and_share(d.term, s.score), false});
  }
  draw_signed_bars(bars, pal, probe, "why_dim");
  more_line(s.by_dimension.size(), shown, pal);
}

void by_rope(const attn::ScoreSplit& s, const ThemePalette& pal, WidgetProbe* probe, bool slide) {
  const attn::RopeSplit& r = *s.by_rope;
  // A slide leaves the why of the formula to the lesson's text.
  if (!slide) {
    ImGui::Spacing();
    wrapped_text("By rotary pair: each pair's term is |q||k| cos(φ_q − φ_k + Δθ), here Δ = " +
                 std::to_string(r.distance) + " positions. Slow pairs (small θ) barely turn, so they carry content; "
                 "fast ones change with every step of distance.");
  }
  std::vector<std::size_t> order(r.pairs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(r.pairs[a].term) > std::abs(r.pairs[b].term);
  });
  const std::size_t shown = std::min(slide ? kSlideShown : kShown, order.size());
  std::vector<SignedBar> bars;
  for (std::size_t n = 0; n < shown; ++n) {
    const attn::RopePairTerm& p = r.pairs[order[n]];
    bars.push_back({"pair " + std::to_string(p.pair) + " θ " + attn::format_number(p.theta, 2), p.term,
                    num(p.content) + " → " + num(p.term), false});
  }
  draw_bars_caption(slide ? "By rotary pair, Δ = " + std::to_string(r.distance) + ": content → at this distance"
                          : "Each pair, largest first: content → at this distance",
                    pal);
  draw_signed_bars(bars, pal, probe, "why_pair");
  more_line(order.size(), shown, pal);
  if (r.unrotated != 0) wrapped_text("Dimensions RoPE leaves alone: " + num(r.unrotated));
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.emphasis));
  wrapped_text("Content " + num(r.content()) + " + position " + num(r.position()) + " = " + num(s.score));
  ImGui::PopStyleColor();
}

}  // namespace

void draw_score_why(const attn::ScoreSplit& s, const ThemePalette& pal, WidgetProbe* probe, bool slide) {
  const std::string cell = "S[" + std::to_string(s.query) + "," + std::to_string(s.key) + "]";
  if (slide) {
    ImGui::TextColored(to_imvec4(pal.heading), "Why %s = %s", cell.c_str(), attn::format_number(s.score, 4).c_str());
  } else {
    ImGui::Separator();
    ImGui::TextColored(to_imvec4(pal.heading), "Why this score");
    wrapped_text(cell + " of head " + std::to_string(s.head) + " = q · k = " + attn::format_number(s.score, 4) +
                 ", the sum of these parts:");
  }
  // A slide has room for one split: with RoPE the pairs (content against
  // position, what a RoPE step is about), else the dimensions.
  if (!slide || !s.by_rope) by_dimension(s, pal, probe, slide);
  if (s.by_rope) by_rope(s, pal, probe, slide);
}

void draw_rope_curves(const model::RopeCurves& curves, const ThemePalette& pal, WidgetProbe* probe) {
  if (curves.pairs.empty() || curves.pairs.front().term.size() < 2) return;
  const int last = static_cast<int>(curves.pairs.front().term.size()) - 1;
  draw_bars_caption("Each pair's term as the distance grows from 0 to " + std::to_string(last) +
                        ", the dot at this score's (" + std::to_string(curves.distance) + "):",
                    pal);
  const float font = ImGui::GetFontSize();
  float label_w = 0;
  for (const model::RopeCurve& c : curves.pairs)
    label_w = std::max(label_w, ImGui::CalcTextSize(("pair " + std::to_string(c.pair)).c_str()).x);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float width = std::max(font * 4, ImGui::GetContentRegionAvail().x - label_w - 2 * gap);
  const float height = font * 1.6f;
  const double scale = curves.largest > 0 ? curves.largest : 1.0;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const std::size_t shown = std::min(kShown, curves.pairs.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const model::RopeCurve& c = curves.pairs[i];
    const ImVec2 at = ImGui::GetCursorScreenPos();
    dl->AddText(ImVec2(at.x, at.y + (height - font) / 2), to_imgui(pal.text), ("pair " + std::to_string(c.pair)).c_str());
    const float x0 = at.x + label_w + gap, mid = at.y + height / 2;
    const auto point = [&](int d) {
      return ImVec2(x0 + width * static_cast<float>(d) / static_cast<float>(last),
                    mid - static_cast<float>(c.term[static_cast<std::size_t>(d)] / scale) * (height / 2 - 2));
    };
    dl->AddLine(ImVec2(x0, mid), ImVec2(x0 + width, mid), to_imgui(pal.muted));  // zero
    std::vector<ImVec2> line;
    for (int d = 0; d <= last; ++d) line.push_back(point(d));
    dl->AddPolyline(line.data(), static_cast<int>(line.size()), to_imgui(pal.accent_k), ImDrawFlags_None, 1.5f);
    if (curves.distance >= 0 && curves.distance <= last)
      dl->AddCircleFilled(point(curves.distance), font * 0.22f, to_imgui(pal.emphasis));
    if (probe) (*probe)["why_curve_" + std::to_string(i)] = ImVec4(x0, at.y, x0 + width, at.y + height);
    ImGui::Dummy(ImVec2(label_w + gap + width, height));
  }
  more_line(curves.pairs.size(), shown, pal);
}

int slide_why_lines(const attn::ScoreSplit* s) {
  if (!s) return 2 + static_cast<int>(kSlideShown) + 1;  // not made yet: room for the most
  if (const auto& r = s->by_rope)
    return 2 + static_cast<int>(std::min(kSlideShown, r->pairs.size())) + (r->pairs.size() > kSlideShown) +
           (r->unrotated != 0) + 1;
  return 2 + static_cast<int>(std::min(kSlideShown, s->by_dimension.size())) + (s->by_dimension.size() > kSlideShown);
}

}  // namespace viz
