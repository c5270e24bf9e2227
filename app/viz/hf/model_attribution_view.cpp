// The Model view's Attribution tab: each head's direct part of the logit of
// the model's top guess after the last token, as a layers × heads grid in
// the signed colours (what pushes the guess up is one colour, what pushes
// it down the other) with each layer's MLP beside it, and the other sources
// (embeddings, biases) and their sum, the logit, under it.
#include <algorithm>
#include <cmath>
#include <string>

#include "attn/text/format_number.hpp"
#include "hf/model_view.hpp"
#include "model/colour/colour_scale.hpp"
#include "widgets/fit_label.hpp"
#include "widgets/long_text.hpp"

namespace viz {

void draw_model_attribution(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe) {
  const ModelSession& s = d.session;
  const AttributionMap* m = s.attribution().result(s.before());
  if (!s.checkpoint() || !s.checkpoint()->config().causal || !s.checkpoint()->config().pre_norm) {
    wrapped_text("Logit attribution needs a causal model whose stream is a sum (GPT-2, Llama, Mistral, Qwen2); this "
                 "one is not.");
    return;
  }
  if (pass_job_waiting("the logit attribution (a float64 pass)", s.attribution().error(), s.attribution().progress(),
                       m != nullptr, pal))
    return;
  const attn::hf::LogitAttribution& a = m->parts;
  wrapped_text("Why the model guesses \"" + shown_token(m->token_text) + "\" next: its logit, " +
               attn::format_number(a.logit) + ", is the sum of what each part of the stream writes into it through the "
               "final norm (held at this token's value). Each cell is one head's direct part; what a head does "
               "through later heads is not in it (patching measures that).");
  double largest = 1e-12;
  for (const auto& row : a.heads)
    for (double v : row) largest = std::max(largest, std::abs(v));
  for (double v : a.mlps) largest = std::max(largest, std::abs(v));
  ColourScale scale;
  scale.kind = attn::ValueKind::Signed;
  scale.map = map;
  scale.range = {-largest, largest};
  const float font = ImGui::GetFontSize();
  const int heads = a.heads.empty() ? 0 : static_cast<int>(a.heads[0].size());
  const float label_w = ImGui::CalcTextSize("layer 00").x + font * 0.5f;
  const float cell_w = std::max(font * 3.2f, std::min(font * 5.0f, (ImGui::GetContentRegionAvail().x - label_w) /
                                                                        static_cast<float>(heads + 1)));
  const float cell_h = font * 1.6f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int h = 0; h <= heads; ++h) {
    const std::string label = h < heads ? "H" + std::to_string(h) : "MLP";
    dl->AddText(ImVec2(origin.x + label_w + cell_w * static_cast<float>(h) + 3, origin.y), to_imgui(pal.heading),
                label.c_str());
  }
  for (std::size_t l = 0; l < a.heads.size(); ++l) {
    const float y = origin.y + cell_h * static_cast<float>(l + 1);
    dl->AddText(ImVec2(origin.x, y + (cell_h - font) / 2), to_imgui(pal.text), ("layer " + std::to_string(l)).c_str());
    for (int h = 0; h <= heads; ++h) {
      const double v = h < heads ? a.heads[l][static_cast<std::size_t>(h)] : a.mlps[l];
      const ImVec2 p0(origin.x + label_w + cell_w * static_cast<float>(h), y), p1(p0.x + cell_w - 2, y + cell_h - 2);
      const Rgba fill = colour_of(scale, 0, v);
      dl->AddRectFilled(p0, p1, IM_COL32(fill.r, fill.g, fill.b, 255));
      const std::string text = fit_label(attn::format_number(v, 2), cell_w - 6);
      dl->AddText(ImVec2(p0.x + 3, p0.y + (cell_h - 2 - font) / 2), to_imgui(text_colour_on(fill)), text.c_str());
      if (probe)
        (*probe)["attribution_" + std::to_string(l) + "_" + (h < heads ? std::to_string(h) : std::string("mlp"))] =
            ImVec4(p0.x, p0.y, p1.x, p1.y);
    }
  }
  ImGui::Dummy(ImVec2(label_w + cell_w * static_cast<float>(heads + 1), cell_h * static_cast<float>(a.heads.size() + 1)));
  ImGui::Spacing();
  // The sources that are no head and no MLP, then the sum.
  for (std::size_t i = 0; i < a.sources.size(); ++i) {
    const std::string& name = a.sources[i];
    if (name.find(" H") != std::string::npos || name.find(" MLP") != std::string::npos) continue;
    ImGui::Text("%s: %s", name.c_str(), attn::format_number(a.parts[i]).c_str());
  }
  double sum = 0;
  for (double v : a.parts) sum += v;
  ImGui::TextColored(to_imvec4(pal.emphasis), "All parts: %s = the logit", attn::format_number(sum).c_str());
}

}  // namespace viz
