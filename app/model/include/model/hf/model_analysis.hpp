// One run of a real model on one text, as the Model view shows it: the
// float forward pass (with heads switched off, or not), each head's
// measures, role and thumbnail, and the next-token predictions at the last
// position. analyse() is the background job; it reports a layer at a time
// and stops when cancelled.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "model/hf/forward_counts.hpp"
#include "model/hf/head_atlas.hpp"
#include "model/hf/head_measures.hpp"
#include "model/hf/model_tokens.hpp"
#include "model/tasks/task_control.hpp"

namespace model {

struct TokenPrediction {
  int id = 0;
  std::string text;
  double probability = 0;
};

struct HeadSummary {
  HeadMeasures measures;
  std::string role;  // "" when no simple rule fits
};

struct ModelAnalysis;

struct AnalysisInput {
  std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
  std::shared_ptr<const ModelTokens> tokens;
  std::vector<int> ids;
  std::vector<attn::hf::HeadRef> heads_off;
  attn::hf::AblationMode mode = attn::hf::AblationMode::Zero;
  // The finished analysis of `ids` with every head on, when there is one:
  // a pass with heads off resumes from the residual stream it kept entering
  // the first switched-off layer and takes the layers before it as they are.
  std::shared_ptr<const ModelAnalysis> all_heads_on;
  ForwardCounts* counts = nullptr;  // the session's; outlives the job
};

struct ModelAnalysis {
  std::vector<int> ids;
  std::vector<attn::hf::HeadRef> heads_off;
  attn::hf::AblationMode mode = attn::hf::AblationMode::Zero;
  std::shared_ptr<const attn::hf::ForwardResult<float>> forward;
  std::vector<std::vector<HeadSummary>> heads;       // [layer][head]
  std::vector<std::vector<Thumbnail>> thumbnails;    // [layer][head]
  std::vector<TokenPrediction> predictions;          // at the last position; empty when not causal
  // (vocab) every token's probability at the last position, so a token that
  // leaves the top ten when heads are switched off still has a number.
  std::vector<float> last_probabilities;
  // Its probability at the last position (0 when not causal or out of range).
  double probability_of(int id) const;
};

ModelAnalysis analyse(const AnalysisInput& in, TaskControl& control);

// The top `k` next tokens at `position` of a finished forward pass.
std::vector<TokenPrediction> predictions_at(const attn::hf::Checkpoint& ck, const ModelTokens& tokens,
                                            const attn::hf::ForwardResult<float>& forward, int position, int k = 10);

}  // namespace model
