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

std::string share(double part, double whole) {
  return whole == 0 ? num(part) : num(part) + " (" + attn::format_number(100.0 * part / whole, 3) + "%)";
}

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
    bars.push_back({"d " + std::to_string(d.dim), d.term, share(d.term, s.score), false});
  }
  draw_signed_bars(bars, pal, probe, "why_dim");
  more_line(s.by_dimension.size(), shown, pal);
}

void by_rope(const attn::ScoreSplit& s, const ThemePalette& pal, WidgetProbe* probe, bool slide) {
  const attn::RopeSplit& r = *s.by_rope;
  if (!slide) ImGui::Spacing();
  // A slide leaves the why of the formula to the lesson's text.
  if (!slide)
    wrapped_text("By rotary pair: each pair's term is |q||k| cos(φ_q − φ_k + Δθ), here Δ = " +
               std::to_string(r.distance) + " positions. Slow pairs (small θ) barely turn, so they carry content; "
               "fast ones change with every step of distance.");
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

int slide_why_lines(const attn::ScoreSplit* s) {
  if (!s) return 2 + static_cast<int>(kSlideShown) + 1;  // not made yet: room for the most
  if (const auto& r = s->by_rope)
    return 2 + static_cast<int>(std::min(kSlideShown, r->pairs.size())) + (r->pairs.size() > kSlideShown) +
           (r->unrotated != 0) + 1;
  return 2 + static_cast<int>(std::min(kSlideShown, s->by_dimension.size())) + (s->by_dimension.size() > kSlideShown);
}

}  // namespace viz
