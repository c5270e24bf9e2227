// The Model view's Patching tab: the corrupted prompt beside the text on the
// left (the clean one), what to patch, Run and Cancel with the progress,
// and the map of how much of the clean answer each patch brings back. A
// click on a head asks for its layer, clean against corrupted, in compare.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <string>

#include "attn/text/format_number.hpp"
#include "hf/layer_grid.hpp"
#include "hf/model_view.hpp"
#include "widgets/long_text.hpp"

namespace viz {

namespace {

void patching_controls(const ModelPatching& job, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe) {
  wrapped_text("Corrupted prompt (as many tokens as the text)");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  const bool entered = ImGui::InputText("##model_corrupted", &ui.corrupted, ImGuiInputTextFlags_EnterReturnsTrue);
  probe_item(probe, "patch_corrupted");
  // The metric's two tokens: typed, or left empty for the runs' own top guesses.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float labels = ImGui::CalcTextSize("answer").x + ImGui::CalcTextSize("wrong").x + 2 * style.ItemInnerSpacing.x;
  const float half = (ImGui::GetContentRegionAvail().x - style.ItemSpacing.x - labels) / 2;
  ImGui::SetNextItemWidth(half);
  ImGui::InputTextWithHint("answer##patch_answer", "the clean run's guess", &ui.patch_answer);
  probe_item(probe, "patch_answer");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(half);
  ImGui::InputTextWithHint("wrong##patch_wrong", "the corrupted run's guess", &ui.patch_wrong);
  probe_item(probe, "patch_wrong");
  if (ImGui::RadioButton("each head's output", ui.patch_site == attn::hf::PatchSite::HeadOutput))
    ui.patch_site = attn::hf::PatchSite::HeadOutput;
  const char* stream = "the stream at each layer and token";
  same_line_if_room(radio_width(stream));
  if (ImGui::RadioButton(stream, ui.patch_site == attn::hf::PatchSite::ResidualStream))
    ui.patch_site = attn::hf::PatchSite::ResidualStream;
  const bool can_run = !job.running() && !ui.corrupted.empty();
  if (!can_run) ImGui::BeginDisabled();
  if (ImGui::Button("Patch") || (entered && can_run)) ui.run_patching = true;
  probe_item(probe, "patch_run");
  if (!can_run) ImGui::EndDisabled();
  const TaskProgress p = job.progress();
  if (job.running() && job_progress_row(p, std::to_string(p.done) + " of " + std::to_string(p.total) + " runs",
                                        "Cancel##patching", probe, "patch_cancel"))
    ui.cancel_patching = true;
  job_error_line("Patching failed: ", job.error(), pal);
}

}  // namespace

void draw_model_patching(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe) {
  const ModelSession& s = d.session;
  ModelUi& ui = d.ui;
  if (!s.checkpoint() || !s.checkpoint()->config().causal) {
    wrapped_text("Patching compares next-token guesses, so it needs a model that makes them (GPT-2, Llama, Mistral, "
                 "Qwen2); this one does not.");
    return;
  }
  wrapped_text("The text on the left is the clean prompt. Type a corrupted one of as many tokens (change one name, "
               "say) and press Patch. The clean run's top guess is the answer and the corrupted run's the wrong "
               "token; each patch copies one activation of the clean run into the corrupted run, and the map shows "
               "how much of logit(answer) − logit(wrong) it brings back: 1 all of it, 0 none.");
  patching_controls(s.patching(), ui, pal, probe);
  const PatchMap* p = s.patching().result(s.ids());
  if (!p) return;
  const attn::hf::PatchingResult& r = p->result;
  ImGui::Spacing();
  wrapped_text("Answer \"" + shown_token(p->answer_text) + "\" against \"" + shown_token(p->wrong_text) +
               "\": their logit difference is " + attn::format_number(r.clean, 3) + " on the clean prompt and " +
               attn::format_number(r.corrupted, 3) + " on \"" + p->corrupted_text + "\".");
  const bool heads = p->site == attn::hf::PatchSite::HeadOutput;
  LayerGrid grid;
  const std::size_t columns = r.recovered.empty() ? 0 : r.recovered[0].size();
  for (std::size_t c = 0; c < columns; ++c)
    grid.columns.push_back(heads ? "H" + std::to_string(c)
                                 : (c < s.labels().size() ? shown_token(s.labels()[c]) : std::to_string(c)));
  grid.values = r.recovered;
  grid.range = 1;            // a share of the gap: full colour at all of it
  grid.zero_below = 0.005;   // under half a percent of the gap: float32's noise, not an effect
  grid.probe_prefix = "patch";
  ImGui::BeginChild("##patch_map", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  const LayerGridHit hit = draw_layer_grid(grid, map, pal, probe);
  if (hit.hovered) {
    const auto [l, c] = *hit.hovered;
    const std::string where = heads ? "L" + std::to_string(l) + " H" + std::to_string(c)
                                    : "layer " + std::to_string(l) + ", token " + std::to_string(c);
    ImGui::SetTooltip("%s patched: the difference is %s, %s%% of the way from corrupted to clean%s", where.c_str(),
                      attn::format_number(r.patched[static_cast<std::size_t>(l)][static_cast<std::size_t>(c)], 3).c_str(),
                      attn::format_number(100 * r.recovered[static_cast<std::size_t>(l)][static_cast<std::size_t>(c)], 3).c_str(),
                      heads ? "\nClick: this layer, clean against corrupted" : "");
  }
  if (hit.clicked && heads) ui.open_patched = attn::hf::HeadRef{hit.clicked->first, hit.clicked->second};
  ImGui::Spacing();
  ImGui::TextColored(to_imvec4(pal.muted), "%s", heads ? "Click a head to open its layer in the pipeline: clean (A) "
                                                         "against corrupted (B) in the compare view."
                                                       : "Each cell copies one token's stream entering that layer.");
  ImGui::EndChild();
}

}  // namespace viz
