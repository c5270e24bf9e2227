#pragma once
// `attn model quant`: what quantization does to each head of a model, the
// same tokens through the quantized file and one at higher precision beside
// it (a GGUF in F16, or the safetensors folder), as a layers x heads table
// of each head's mean Jensen-Shannon divergence in bits with its most moved
// row, or as JSON (format "attnviz-quant").
#include <string>

namespace attn::cli {

struct QuantOptions {
  std::string dir, beside, text, ids;
  bool json = false;
};

int run_quant(const QuantOptions& o);

}  // namespace attn::cli
