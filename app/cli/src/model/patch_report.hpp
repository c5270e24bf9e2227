#pragma once
// `attn model patch`: activation patching between a clean and a corrupted
// prompt of the same length, per head or per (layer, position), printed as a
// map of how much of the logit difference each patch brings back, or as
// JSON (format "attnviz-patching").
#include <string>

namespace attn::cli {

struct PatchOptions {
  std::string dir;
  std::string clean, corrupted;          // texts
  std::string clean_ids, corrupted_ids;  // or token ids, comma-separated
  int answer = -1, wrong = -1;  // -1: the clean run's top guess, and the corrupted run's
  std::string site = "heads";   // heads or positions
  bool json = false;
};

int run_patching(const PatchOptions& o);

}  // namespace attn::cli
