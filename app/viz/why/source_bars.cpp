// Draws a score's split by source (source_bars.hpp) with signed bars.
#include "why/source_bars.hpp"

#include <vector>

#include <imgui.h>

#include "widgets/long_text.hpp"
#include "why/signed_bars.hpp"

namespace viz {

void draw_source_bars(const attn::SourceSplit& split, const SourceBarsText& text, const ThemePalette& pal,
                      WidgetProbe* probe) {
  const auto top = split.largest(1);
  const attn::Vec by_key = split.by_key_source();
  std::vector<SignedBar> bars;
  for (Eigen::Index s = 0; s < by_key.size(); ++s)
    bars.push_back({text.key_name ? text.key_name(static_cast<int>(s)) : split.key_sources[static_cast<std::size_t>(s)],
                    by_key(s), text.share_only ? share_of(by_key(s), split.score) : part_and_share(by_key(s), split.score),
                    !top.empty() && top.front().key_source == s});
  draw_bars_caption("The key's sources (each summed over the query's):", pal);
  draw_signed_bars(bars, pal, probe, text.probe_prefix + "_key");
  if (!text.between.empty()) wrapped_text(text.between);
  if (!text.query_side) return;
  const attn::Vec by_query = split.by_query_source();
  bars.clear();
  for (Eigen::Index s = 0; s < by_query.size(); ++s)
    bars.push_back({split.query_sources[static_cast<std::size_t>(s)], by_query(s), part_and_share(by_query(s), split.score),
                    !top.empty() && top.front().query_source == s});
  draw_bars_caption("The query's sources (each summed over the key's):", pal);
  draw_signed_bars(bars, pal, probe, text.probe_prefix + "_query");
}

void draw_model_sources(const attn::SourceSplit& split, const ThemePalette& pal, WidgetProbe* probe) {
  ImGui::Separator();
  ImGui::TextColored(to_imvec4(pal.heading), "By source in the residual stream");
  wrapped_text("The model's stream at a token is a sum: its embeddings, each earlier head's and MLP's output, the "
               "biases. With each norm held at its scale, the score is a sum over (query source, key source) pairs.");
  const auto top = split.largest(1);
  if (!top.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.emphasis));
    wrapped_text("Largest part: " + split.describe(top.front()));
    ImGui::PopStyleColor();
  }
  draw_source_bars(split, {{}, "", "why_source", true, false}, pal, probe);
}

}  // namespace viz
