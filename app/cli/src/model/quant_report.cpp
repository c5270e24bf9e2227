// Runs attn::hf::quant_divergence on the two models and prints it (quant_report.hpp).
#include "model/quant_report.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "attn/hf/model_error.hpp"
#include "attn/hf/quant/quant_divergence.hpp"
#include "cli_error.hpp"
#include "model/model_input.hpp"

namespace attn::cli {

int run_quant(const QuantOptions& o) {
  const OpenedModel m = open_model({o.dir, o.text, o.ids}, true);
  hf::QuantDivergence d;
  try {
    const auto reference = hf::Checkpoint::open(o.beside);
    d = hf::quant_divergence(*m.checkpoint, *reference, m.ids);
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  if (o.json) {
    nlohmann::json heads = nlohmann::json::array();
    for (const hf::HeadDivergence& h : d.heads)
      heads.push_back({{"layer", h.layer}, {"head", h.head}, {"mean_bits", h.mean}, {"worst_bits", h.worst},
                       {"worst_query", h.worst_row}, {"worst_token", m.tokens[static_cast<std::size_t>(h.worst_row)]}});
    std::cout << nlohmann::json({{"format", "attnviz-quant"}, {"version", 1}, {"ids", m.ids}, {"tokens", m.tokens},
                                 {"measure", "Jensen-Shannon divergence of each query's weights, bits"},
                                 {"heads", heads}})
                     .dump(1)
              << "\n";
    return 0;
  }
  std::cout << "How far each head's attention moved (Jensen-Shannon divergence of each query's weights, bits; 0 = "
               "the same, 1 = nothing in common), mean over the " << m.ids.size() << " queries:\n      ";
  char cell[32];
  for (int h = 0; h < d.n_heads; ++h) {
    std::snprintf(cell, sizeof cell, " %8s", ("H" + std::to_string(h)).c_str());
    std::cout << cell;
  }
  std::cout << "\n";
  const hf::HeadDivergence* worst = d.heads.empty() ? nullptr : &d.heads.front();
  for (int l = 0; l < d.n_layers; ++l) {
    std::snprintf(cell, sizeof cell, "L%-5d", l);
    std::cout << cell;
    for (int h = 0; h < d.n_heads; ++h) {
      const hf::HeadDivergence& x = d.at(l, h);
      std::snprintf(cell, sizeof cell, " %8.5f", x.mean);
      std::cout << cell;
      if (x.worst > worst->worst) worst = &x;
    }
    std::cout << "\n";
  }
  if (worst)
    std::cout << "The most moved row: layer " << worst->layer << ", head " << worst->head << ", query " << worst->worst_row
              << " \"" << m.tokens[static_cast<std::size_t>(worst->worst_row)] << "\", " << worst->worst << " bits\n";
  return 0;
}

}  // namespace attn::cli
