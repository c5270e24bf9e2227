// The Model view's activation patching: the overview's text is the clean
// prompt and a corrupted one of as many tokens is typed beside it. Every
// head's output (or the stream at every layer and position) of the clean
// run is copied into the corrupted run in turn (attn::hf::patch_activations),
// and the map says how much of the answer each copy brings back. It runs
// when asked, in the background, with progress and cancel.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/why/patching.hpp"
#include "model/hf/model_tokens.hpp"
#include "model/hf/map_job.hpp"

namespace model {

struct PatchInput {
  std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
  std::shared_ptr<const ModelTokens> tokens;
  std::vector<int> clean;  // the overview's ids
  std::string corrupted;   // as typed
  std::string answer, wrong;  // one token each as typed; "": the clean run's, the corrupted run's top guess
  attn::hf::PatchSite site = attn::hf::PatchSite::HeadOutput;
};

struct PatchMap {
  std::vector<int> clean, corrupted;  // the two prompts' ids
  std::string corrupted_text;
  std::vector<std::string> corrupted_labels;  // its tokens' texts
  attn::hf::PatchSite site = attn::hf::PatchSite::HeadOutput;
  attn::hf::PatchingResult result;
  std::string answer_text, wrong_text;  // the metric's tokens, as text
};

class ModelPatching : public MapJob<PatchInput, PatchMap, &PatchMap::clean> {
 public:
  ModelPatching();
};

}  // namespace model
