// The next-token predictions of the Model view: the top ten at the last
// token (or the hovered one), and beside them, with heads switched off, the
// top ten then and how the first list's tokens moved.
#include <cstdio>
#include <string>

#include "hf/model_view.hpp"
#include "gl/theme_style.hpp"
#include "widgets/long_text.hpp"

namespace viz {

namespace {

std::string percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * p);
  return buf;
}

const TokenPrediction* find_id(const std::vector<TokenPrediction>& list, int id) {
  for (const TokenPrediction& p : list)
    if (p.id == id) return &p;
  return nullptr;
}

}  // namespace

void draw_model_predictions(const ModelSession& session, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe) {
  const ModelAnalysis* before = session.before();
  if (!before || !session.checkpoint()) return;
  if (!session.checkpoint()->config().causal) {
    wrapped_text("This model reads the whole text at once (it is not causal): it makes no next-token predictions.");
    return;
  }
  const int n = static_cast<int>(before->ids.size());
  const int position = ui.hovered_position >= 0 && ui.hovered_position < n ? ui.hovered_position : n - 1;
  const std::vector<TokenPrediction>* list = session.predictions_at(position);
  const std::string token = shown_token(session.labels()[static_cast<size_t>(position)]);
  ImGui::Text("Next token after \"%s\" (position %d)", token.c_str(), position);
  if (!list) {
    ImGui::TextDisabled("computing...");
    return;
  }
  // Heads switched off change the last position's predictions (the second pass).
  const ModelAnalysis* after = position == n - 1 ? session.after() : nullptr;
  const int columns = after ? 5 : 2;
  if (!ImGui::BeginTable("##model_predictions", columns, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("token");
  ImGui::TableSetupColumn("p");
  if (after) {
    ImGui::TableSetupColumn("off: change");
    ImGui::TableSetupColumn("off: token");
    ImGui::TableSetupColumn("off: p");
  }
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < list->size() || (after && i < after->predictions.size()); ++i) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (i < list->size()) {
      const TokenPrediction& p = (*list)[i];
      ImGui::TextUnformatted(shown_token(p.text).c_str());
      probe_item(probe, "model_prediction_" + std::to_string(i));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(percent(p.probability).c_str());
      if (after) {
        ImGui::TableNextColumn();
        if (const TokenPrediction* q = find_id(after->predictions, p.id)) {
          const double change = q->probability - p.probability;
          const Rgba c = change >= 0 ? pal.right : pal.error;
          ImGui::TextColored(ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1), "%+.1f", 100 * change);
        } else {
          ImGui::TextDisabled("out of top 10");
        }
      }
    } else {
      ImGui::TableNextColumn();
      ImGui::TableNextColumn();
    }
    if (after) {
      ImGui::TableNextColumn();
      if (i < after->predictions.size()) {
        ImGui::TextUnformatted(shown_token(after->predictions[i].text).c_str());
        probe_item(probe, "model_prediction_after_" + std::to_string(i));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(percent(after->predictions[i].probability).c_str());
      } else {
        ImGui::TableNextColumn();
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace viz
