// The Model view's logit attribution: each head's and MLP's direct part of
// the logit of the model's top guess after the last token
// (attn::hf::direct_logit_attribution), for the text the overview ran. Its
// float64 pass runs in the background (PassJob), a layer at a time with
// progress and cancel, once the Attribution tab asks.
#pragma once

#include <memory>
#include <string>

#include "attn/hf/why/logit_attribution.hpp"
#include "model/hf/pass_job.hpp"

namespace model {

struct AttributionMap {
  std::weak_ptr<const attn::hf::ForwardResult<float>> forward;  // the overview pass it explains
  attn::hf::LogitAttribution parts;
  std::string token_text;  // the guess whose logit is taken apart
};

class ModelAttribution : public PassJob<AttributionMap> {
 public:
  ModelAttribution();
};

}  // namespace model
