// Under the Train view's head grids: why the strongest induction head looks
// where it looks most, as its score split by the sources of the residual
// stream (model/train/train_why.hpp). The key side's bars show which earlier
// head the key was written by; on a trained induction model that is the
// previous-token head.
#include <string>
#include <vector>

#include "attn/text/format_number.hpp"
#include "train/train_view.hpp"
#include "widgets/long_text.hpp"
#include "why/signed_bars.hpp"

namespace viz {

namespace {

std::string share_text(double value, double whole) {
  std::string text = attn::format_number(value, 3);
  if (whole != 0) text += "  (" + attn::format_number(100.0 * value / whole, 3) + "%)";
  return text;
}

}  // namespace

void draw_train_why(const TrainWhy& why, const FontSet& fonts, const ThemePalette& pal, WidgetProbe* probe) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushFont(fonts.bold());
  wrapped_text(train_why_headline(why));
  ImGui::PopFont();
  wrapped_text("Its score there, q · k = " + attn::format_number(why.split.score, 4) + " (weight " +
               attn::format_number(why.weight, 3) + "), is a sum over pairs of sources: what each part of the "
               "query's stream meets in each part of the key's.");
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.emphasis));
  wrapped_text(train_why_largest(why));
  ImGui::PopStyleColor();
  const attn::Vec by_key = why.split.by_key_source();
  const auto top = why.split.largest(1);
  std::vector<SignedBar> bars;
  for (Eigen::Index s = 0; s < by_key.size(); ++s)
    bars.push_back({train_why_source(why, static_cast<int>(s)), by_key(s), share_text(by_key(s), why.split.score),
                    !top.empty() && top.front().key_source == s});
  draw_bars_caption("The key's sources (each summed over the query's):", pal);
  draw_signed_bars(bars, pal, probe, "train_why_key");
  const attn::Vec by_query = why.split.by_query_source();
  bars.clear();
  for (Eigen::Index s = 0; s < by_query.size(); ++s)
    bars.push_back({why.split.query_sources[static_cast<std::size_t>(s)], by_query(s),
                    share_text(by_query(s), why.split.score), !top.empty() && top.front().query_source == s});
  const std::string previous = train_why_previous(why);
  if (!previous.empty()) wrapped_text(previous);
  draw_bars_caption("The query's sources (each summed over the key's):", pal);
  draw_signed_bars(bars, pal, probe, "train_why_query");
}

}  // namespace viz
