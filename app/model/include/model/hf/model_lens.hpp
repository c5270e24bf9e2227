// The Model view's logit lens: what the model would guess next if it stopped
// after each layer (attn::hf::logit_lens), for the text the overview ran,
// computed in the background (PassJob) from that pass's kept residual
// streams once the Lens tab asks for it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attn/hf/forward/logit_lens.hpp"
#include "model/hf/pass_job.hpp"

namespace model {

struct LensGrid {
  std::weak_ptr<const attn::hf::ForwardResult<float>> forward;  // the pass it belongs to
  std::vector<std::string> row_names;                           // "embeddings", "after layer 0", ...
  // [row][position]: the top guesses, most probable first, with their text.
  std::vector<std::vector<std::vector<TokenPrediction>>> top;
};

class ModelLens : public PassJob<LensGrid> {
 public:
  ModelLens();
  static constexpr int kTop = 5;
};

}  // namespace model
