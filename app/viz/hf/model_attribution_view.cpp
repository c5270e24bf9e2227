// The Model view's Attribution tab: each head's direct part of the logit of
// the model's top guess after the last token, as a layers × heads grid in
// the signed colours (what pushes the guess up is one colour, what pushes
// it down the other) with each layer's MLP beside it, and the other sources
// (embeddings, biases) and their sum, the logit, under it.
#include <algorithm>
#include <cmath>
#include <string>

#include "attn/text/format_number.hpp"
#include "hf/layer_grid.hpp"
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
  if (pass_job_waiting("the logit attribution (a float64 pass)", PassJobState::of(s.attribution()), m != nullptr,
                       d.ui.attribution_request, pal, probe))
    return;
  const attn::hf::LogitAttribution& a = m->parts;
  wrapped_text("Why the model guesses \"" + shown_token(m->token_text) + "\" next: its logit, " +
               attn::format_number(a.logit) + ", is the sum of what each part of the stream writes into it through the "
               "final norm (held at this token's value). Each cell is one head's direct part; what a head does "
               "through later heads is not in it (patching measures that).");
  LayerGrid grid;
  for (std::size_t h = 0; h < (a.heads.empty() ? 0 : a.heads[0].size()); ++h) grid.columns.push_back("H" + std::to_string(h));
  grid.columns.push_back("MLP");
  for (std::size_t l = 0; l < a.heads.size(); ++l) {
    grid.values.push_back(a.heads[l]);
    grid.values.back().push_back(a.mlps[l]);
  }
  grid.probe_prefix = "attribution";
  draw_layer_grid(grid, map, pal, probe);
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
