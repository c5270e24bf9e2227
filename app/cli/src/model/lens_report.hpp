#pragma once
// `attn model lens`: the logit lens of a model folder on a text, as a table
// of each layer's top guess at each position, or as JSON (format
// "attnviz-lens") with every row's top predictions and their probabilities.
#include <string>

namespace attn::cli {

struct LensOptions {
  std::string dir, text, ids;
  int top = 5;
  bool json = false;
};

int run_lens(const LensOptions& o);

}  // namespace attn::cli
