// The Model view's logit lens: what the model would guess next if it stopped
// after each layer (attn::hf::logit_lens), for the text the overview ran,
// computed in the background from that pass's kept residual streams once the
// Lens tab asks for it, with progress and cancel. The UI
// thread only reads the finished grid.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/forward/logit_lens.hpp"
#include "model/hf/model_analysis.hpp"
#include "model/hf/model_tokens.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

struct LensGrid {
  // Which pass it belongs to (weak: a grid never keeps a pass alive, and a
  // new pass at the old one's address is not mistaken for it).
  std::weak_ptr<const attn::hf::ForwardResult<float>> forward;
  std::vector<std::string> row_names;                       // "embeddings", "after layer 0", ...
  // [row][position]: the top guesses, most probable first, with their text.
  std::vector<std::vector<std::vector<TokenPrediction>>> top;
};

class ModelLens {
 public:
  ModelLens();
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }
  // One frame: `wanted` (the Lens tab is shown) starts the lens of
  // `analysis`'s pass when it has none yet; a finished one is taken in.
  void update(bool wanted, const std::shared_ptr<const attn::hf::Checkpoint>& checkpoint,
              const std::shared_ptr<const ModelTokens>& tokens, const ModelAnalysis* analysis);
  // The grid of `analysis`'s pass, or null while it is computed (or none asked).
  const LensGrid* grid(const ModelAnalysis* analysis) const;
  bool busy() const { return runner_.busy(); }
  bool pending() const { return runner_.busy() || runner_.has_outcome(); }
  TaskProgress progress() const { return runner_.progress(); }
  const std::string& error() const { return error_; }
  void forget();
  void wait_idle() { runner_.wait_idle(); }

  static constexpr int kTop = 5;

 private:
  struct Input {
    std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
    std::shared_ptr<const ModelTokens> tokens;
    std::shared_ptr<const attn::hf::ForwardResult<float>> forward;
  };
  static LensGrid compute(const Input& in, TaskContext<LensGrid>& control);

  TaskRunner<Input, LensGrid> runner_;
  std::shared_ptr<const LensGrid> grid_;
  std::weak_ptr<const attn::hf::ForwardResult<float>> asked_;  // the pass a lens was asked for
  std::string error_;
};

}  // namespace model
