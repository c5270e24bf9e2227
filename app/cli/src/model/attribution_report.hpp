#pragma once
// `attn model attribute`: direct logit attribution of one next-token logit,
// as a layers × heads table with each layer's MLP, or as JSON (format
// "attnviz-attribution").
#include <string>

namespace attn::cli {

struct AttributionOptions {
  std::string dir, text, ids;
  int position = -1;  // -1: the last token
  int token = -1;     // -1: the model's own top guess there
  bool json = false;
};

int run_attribution(const AttributionOptions& o);

}  // namespace attn::cli
