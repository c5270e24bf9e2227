// Runs the float64 pass keeping every layer's details, attributes one logit
// (attn/hf/why/logit_attribution.hpp) and prints it (attribution_report.hpp).
// The token defaults to the model's own top guess, the one people ask about.
#include "model/attribution_report.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/why/logit_attribution.hpp"
#include "attn/text/format_number.hpp"
#include "cli_error.hpp"
#include "model/model_input.hpp"

namespace attn::cli {

int run_attribution(const AttributionOptions& o) {
  const OpenedModel m = open_model({o.dir, o.text, o.ids}, true);
  const int n = static_cast<int>(m.ids.size());
  const int position = o.position < 0 ? n - 1 : o.position;
  if (position >= n)
    throw CliError("--position: " + std::to_string(position) + " is outside the " + std::to_string(n) + " tokens");
  hf::LogitAttribution a;
  try {
    hf::ForwardOptions fo;
    fo.keep_attentions = false;
    fo.keep_details = true;
    const hf::ForwardResult<double> pass = hf::run_forward<double>(*m.checkpoint, m.ids, fo);
    int token = o.token;
    if (token < 0) token = hf::top_predictions(hf::logits_at(*m.checkpoint, pass, position), 1).front().id;
    a = hf::direct_logit_attribution(*m.checkpoint, pass, position, token);
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  const std::string token_text = m.token_text(a.token);
  if (o.json) {
    std::cout << nlohmann::json({{"format", "attnviz-attribution"}, {"version", 1}, {"position", a.position},
                                 {"token", a.token}, {"token_text", token_text}, {"logit", a.logit},
                                 {"sources", a.sources}, {"parts", a.parts}, {"heads", a.heads}, {"mlps", a.mlps}})
                     .dump(1)
              << "\n";
    return 0;
  }
  std::cout << "The logit of \"" << token_text << "\" (id " << a.token << ") after position " << a.position << " \""
            << m.tokens[static_cast<std::size_t>(a.position)] << "\": " << format_number(a.logit)
            << ", each head's and MLP's direct part (through the final norm held):\n\n";
  std::printf("%-6s", "layer");
  for (std::size_t h = 0; h < (a.heads.empty() ? 0 : a.heads[0].size()); ++h) std::printf(" %9s", ("H" + std::to_string(h)).c_str());
  std::printf(" %9s\n", "MLP");
  for (std::size_t l = 0; l < a.heads.size(); ++l) {
    std::printf("%-6zu", l);
    for (double v : a.heads[l]) std::printf(" %9s", format_number(v, 3).c_str());
    std::printf(" %9s\n", format_number(a.mlps[l], 3).c_str());
  }
  std::cout << "\nEvery source (they sum to the logit):\n";
  double sum = 0;
  for (std::size_t i = 0; i < a.parts.size(); ++i) {
    std::printf("  %-20s %10s\n", a.sources[i].c_str(), format_number(a.parts[i]).c_str());
    sum += a.parts[i];
  }
  std::cout << "  sum " << format_number(sum) << "\n";
  return 0;
}

}  // namespace attn::cli
