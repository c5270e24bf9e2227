// The next-token predictions of the Model view: the top ten at the last
// token (or the hovered one); with heads switched off, each one's
// probability then (in the top ten or not) and the change in percentage
// points, and beside or under them the top ten with the heads off.
#include <algorithm>
#include <string>

#include "hf/model_view.hpp"
#include "gl/theme_style.hpp"
#include "widgets/long_text.hpp"
#include "model/hf/probability_text.hpp"

namespace viz {

namespace {

using model::change_text;
using model::probability_text;

ImVec4 colour_of(Rgba c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1); }

const TokenPrediction* find_id(const std::vector<TokenPrediction>& list, int id) {
  for (const TokenPrediction& p : list)
    if (p.id == id) return &p;
  return nullptr;
}

// The top ten; with heads off, each one's probability then (in the top ten
// with the heads off or not: dimmed when not) and the change.
void ranked_table(const std::vector<TokenPrediction>& list, const ModelAnalysis* after, const ThemePalette& pal, WidgetProbe* probe) {
  if (!ImGui::BeginTable("##model_predictions", after ? 4 : 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("token");
  ImGui::TableSetupColumn("p");
  if (after) {
    ImGui::TableSetupColumn("p, heads off");
    ImGui::TableSetupColumn("change");
  }
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < list.size(); ++i) {
    const TokenPrediction& p = list[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(shown_token(p.text).c_str());
    probe_item(probe, "model_prediction_" + std::to_string(i));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(probability_text(p.probability).c_str());
    if (!after) continue;
    // Any token's probability after comes with the second pass, in the top ten or not.
    const double now = after->probability_of(p.id);
    const bool kept = find_id(after->predictions, p.id) != nullptr;
    ImGui::TableNextColumn();
    if (kept) ImGui::TextUnformatted(probability_text(now).c_str());
    else ImGui::TextDisabled("%s", probability_text(now).c_str());
    if (!kept && ImGui::IsItemHovered()) ImGui::SetTooltip("Out of the top ten with the heads off.");
    probe_item(probe, "model_prediction_off_" + std::to_string(i));
    ImGui::TableNextColumn();
    ImGui::TextColored(colour_of(now >= p.probability ? pal.right : pal.error), "%s", change_text(now - p.probability).c_str());
    probe_item(probe, "model_prediction_change_" + std::to_string(i));
  }
  ImGui::EndTable();
}

void after_table(const std::vector<TokenPrediction>& list, WidgetProbe* probe) {
  if (!ImGui::BeginTable("##model_predictions_after", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("heads off: token");
  ImGui::TableSetupColumn("p");
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < list.size(); ++i) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(shown_token(list[i].text).c_str());
    probe_item(probe, "model_prediction_after_" + std::to_string(i));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(probability_text(list[i].probability).c_str());
  }
  ImGui::EndTable();
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
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float right = at.x + ImGui::GetContentRegionAvail().x;
  ranked_table(*list, after, pal, probe);
  if (!after) return;
  // The top ten with the heads off: beside the first list when it fits, else under it.
  const ImVec2 below = ImGui::GetCursorScreenPos();
  const float beside = ImGui::GetItemRectMax().x + ImGui::GetFontSize();
  if (right - beside >= ImGui::GetFontSize() * 9) ImGui::SetCursorScreenPos({beside, at.y});
  after_table(after->predictions, probe);
  ImGui::SetCursorScreenPos({below.x, std::max(below.y, ImGui::GetItemRectMax().y + ImGui::GetStyle().ItemSpacing.y)});
  ImGui::Dummy({0, 0});
}

}  // namespace viz
