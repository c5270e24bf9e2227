// The Model view's Quantization tab: the path of the same model at higher
// precision, Compare and Cancel with the progress, and a layers x heads map
// of how far each head's attention moved (the mean Jensen-Shannon
// divergence of its rows, in bits), the most moved row named. A click on a
// head asks for its layer, this model (A) against the one beside it (B), in
// the compare view.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <string>

#include "attn/text/format_number.hpp"
#include "hf/layer_grid.hpp"
#include "hf/model_view.hpp"
#include "widgets/long_text.hpp"

namespace viz {

namespace {

void quant_controls(const ModelQuant& job, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe) {
  wrapped_text("Beside it (a GGUF in F16 or F32, or the folder):");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  const bool entered = ImGui::InputText("##model_beside", &ui.beside, ImGuiInputTextFlags_EnterReturnsTrue);
  probe_item(probe, "quant_beside");
  const bool can_run = !job.running() && !ui.beside.empty();
  if (!can_run) ImGui::BeginDisabled();
  if (ImGui::Button("Compare") || (entered && can_run)) ui.run_quant = true;
  probe_item(probe, "quant_run");
  if (!can_run) ImGui::EndDisabled();
  if (job.running() &&
      job_progress_row(job.progress(), std::to_string(job.progress().done) + " of 2 passes", "Cancel##quant", probe, "quant_cancel"))
    ui.cancel_quant = true;
  job_error_line("Cannot compare: ", job.error(), pal);
}

}  // namespace

void draw_model_quant(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe) {
  const ModelSession& s = d.session;
  ModelUi& ui = d.ui;
  wrapped_text("How far each head's attention moved from the same model at higher precision: the mean Jensen-Shannon "
               "divergence of its queries' weights, in bits (0: unchanged, 1: no key shared).");
  quant_controls(s.quant(), ui, pal, probe);
  const QuantMap* q = s.quant().result(s.ids());
  if (!q) return;
  const attn::hf::QuantDivergence& dv = q->divergence;
  const attn::hf::HeadDivergence* worst = nullptr;
  for (const attn::hf::HeadDivergence& h : dv.heads)
    if (!worst || h.worst > worst->worst) worst = &h;
  ImGui::Spacing();
  wrapped_text("This model's weights are " + q->types + "; beside it, " + q->beside_types + ".");
  if (worst) {
    const std::size_t row = static_cast<std::size_t>(worst->worst_row);
    wrapped_text("The most moved row: L" + std::to_string(worst->layer) + " H" + std::to_string(worst->head) +
                 ", the query \"" + (row < s.labels().size() ? shown_token(s.labels()[row]) : std::to_string(row)) +
                 "\", " + attn::format_number(worst->worst, 3) + " bits.");
  }
  LayerGrid grid;
  for (int h = 0; h < dv.n_heads; ++h) grid.columns.push_back("H" + std::to_string(h));
  grid.values.assign(static_cast<std::size_t>(dv.n_layers), std::vector<double>(static_cast<std::size_t>(dv.n_heads), 0.0));
  for (const attn::hf::HeadDivergence& h : dv.heads)
    grid.values[static_cast<std::size_t>(h.layer)][static_cast<std::size_t>(h.head)] = h.mean;
  grid.probe_prefix = "quant";
  // Drawn in the tab itself, not a child: a head per column fits the width,
  // and the tab scrolls where the height does not (presenting at 1024x768).
  const LayerGridHit hit = draw_layer_grid(grid, map, pal, probe);
  if (hit.hovered) {
    const attn::hf::HeadDivergence& h = dv.at(hit.hovered->first, hit.hovered->second);
    const std::size_t row = static_cast<std::size_t>(h.worst_row);
    ImGui::SetTooltip("L%d H%d: %s bits on average; most at the query \"%s\" (%s bits)\nClick: this layer, this model "
                      "against the one beside it",
                      h.layer, h.head, attn::format_number(h.mean, 3).c_str(),
                      row < s.labels().size() ? shown_token(s.labels()[row]).c_str() : "?",
                      attn::format_number(h.worst, 3).c_str());
  }
  if (hit.clicked) ui.open_quant = attn::hf::HeadRef{hit.clicked->first, hit.clicked->second};
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.muted));
  wrapped_text("Click a head to open its layer in the pipeline: this model (A) against the one beside it (B) in the "
               "compare view.");
  ImGui::PopStyleColor();
}

}  // namespace viz
