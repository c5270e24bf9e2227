#pragma once
// `attn model attention`: a model's attention weights on a text, and on
// request its residual streams, per-head outputs and logits, as JSON, npz or
// safetensors, in float32 or float64, for chosen layers and heads. The pass
// runs in float64 and hands each layer over as soon as it is done, so memory
// holds one layer's maps however many layers are asked for.
#include <string>

#include "model/model_input.hpp"

namespace attn::cli {

struct AttentionExportOptions {
  ModelInput in;
  std::string out;
  std::string format;          // json, npz, safetensors; "" = by -o's extension
  std::string dtype = "f64";   // f32 or f64
  std::string layers, heads;   // "0,2-4"; "" = all
  bool residuals = false;      // "residuals" [layer][n][d] (entering each layer) and "final" [n][d]
  bool head_outputs = false;   // "head_outputs" [layer][head][n][head_dim]
  bool logits = false;         // "logits" [n][vocab] (causal models)
};

int run_attention_export(const AttentionExportOptions& o);

// "0,2-4" as sorted distinct numbers below `count`, or all of them for "".
// Throws CliError naming `option`.
std::vector<int> parse_selection(const std::string& text, int count, const std::string& option, const std::string& unit);

}  // namespace attn::cli
