// Under the Train view's head grids: why the strongest induction head looks
// where it looks most, as its score split by the sources of the residual
// stream (model/train/train_why.hpp). The key side's bars show which earlier
// head the key was written by; on a trained induction model that is the
// previous-token head.
#include "attn/text/format_number.hpp"
#include "train/train_view.hpp"
#include "widgets/long_text.hpp"
#include "why/source_bars.hpp"

namespace viz {

void draw_train_why(const TrainWhy& why, const FontSet& fonts, const ThemePalette& pal, WidgetProbe* probe,
                    bool compact) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushFont(fonts.bold());
  wrapped_text(train_why_headline(why));
  ImGui::PopFont();
  probe_item(probe, "train_why");
  if (!compact)
    wrapped_text("Its score there, q · k = " + attn::format_number(why.split.score, 4) + " (weight " +
                 attn::format_number(why.weight, 3) + "), is a sum over pairs of sources: what each part of the "
                 "query's stream meets in each part of the key's.");
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.emphasis));
  wrapped_text(train_why_largest(why));
  ImGui::PopStyleColor();
  draw_source_bars(why.split,
                   {[&why](int s) { return train_why_source(why, s); }, compact ? "" : train_why_previous(why), "train_why", !compact,
                    compact},
                   pal, probe);
}

}  // namespace viz
