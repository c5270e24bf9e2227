// Runs the forward pass keeping each layer's input, then the logit lens
// (attn/hf/forward/logit_lens.hpp), and prints it (lens_report.hpp): a line
// per position with the top guess for the NEXT token at each depth, the way
// the model would answer if it stopped there.
#include "model/lens_report.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "attn/hf/forward/logit_lens.hpp"
#include "attn/hf/model_error.hpp"
#include "cli_error.hpp"
#include "model/model_input.hpp"

namespace attn::cli {

int run_lens(const LensOptions& o) {
  const OpenedModel m = open_model({o.dir, o.text, o.ids}, true);
  hf::ForwardOptions fo;
  fo.keep_attentions = false;
  fo.keep_inputs = true;
  hf::LogitLens lens;
  try {
    const hf::ForwardResult<float> r = hf::run_forward<float>(*m.checkpoint, m.ids, fo);
    lens = hf::logit_lens(*m.checkpoint, r, o.top);
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t row = 0; row < lens.top.size(); ++row) {
      nlohmann::json positions = nlohmann::json::array();
      for (const auto& guesses : lens.top[row]) {
        nlohmann::json cell = nlohmann::json::array();
        for (const hf::Prediction& p : guesses)
          cell.push_back({{"id", p.id}, {"token", m.token_text(p.id)}, {"probability", p.probability}});
        positions.push_back(cell);
      }
      rows.push_back({{"name", lens.row_names[row]}, {"positions", positions}});
    }
    std::cout << nlohmann::json({{"format", "attnviz-lens"}, {"version", 1}, {"ids", m.ids}, {"tokens", m.tokens},
                                 {"precision", "float32"}, {"rows", rows}})
                     .dump(1)
              << "\n";
    return 0;
  }
  // One line a position: its token, then each depth's top guess for the next token.
  std::cout << "The top guess for the next token after each position, at each depth (float32):\n";
  for (std::size_t t = 0; t < m.ids.size(); ++t) {
    std::cout << t << " \"" << m.tokens[t] << "\":";
    for (std::size_t row = 0; row < lens.top.size(); ++row) {
      if (lens.top[row][t].empty()) continue;
      const hf::Prediction& p = lens.top[row][t].front();
      char prob[16];
      std::snprintf(prob, sizeof prob, "%.2f", p.probability);
      std::cout << (row ? " |" : "") << " " << lens.row_names[row] << " \"" << m.token_text(p.id) << "\" " << prob;
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace attn::cli
