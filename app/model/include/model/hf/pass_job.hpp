// One background job per overview pass of the Model view: a view that
// explains the text the overview ran (the logit lens, the logit attribution)
// asks for its result when its tab is shown, once per pass, and reads it
// when done. The job runs on a TaskRunner with progress and cancel; a
// result is tied to its pass weakly, so it never keeps a pass alive and a
// new pass at an old one's address is not mistaken for it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "model/hf/model_analysis.hpp"
#include "model/hf/model_tokens.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

struct PassJobInput {
  std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
  std::shared_ptr<const ModelTokens> tokens;
  std::shared_ptr<const attn::hf::ForwardResult<float>> forward;  // the overview's pass
  TokenPrediction top;  // its top guess after the last token (id 0, no text, when it has none)
};

// `Result` has a member `std::weak_ptr<const attn::hf::ForwardResult<float>> forward`.
template <class Result>
class PassJob {
 public:
  using Compute = std::function<Result(const PassJobInput&, TaskContext<Result>&)>;
  // `applies`: whether the job can run on this model and pass at all.
  using Applies = std::function<bool(const attn::hf::ModelConfig&, const ModelAnalysis&)>;

  PassJob(Compute compute, Applies applies)
      : runner_(
            [compute = std::move(compute)](const PassJobInput& in, TaskContext<Result>& control) {
              Result r = compute(in, control);
              r.forward = in.forward;
              return r;
            },
            TaskPolicy::Replace),
        applies_(std::move(applies)) {}
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }

  // One frame: a finished result is taken in; `wanted` (the tab is shown)
  // starts the job on `analysis`'s pass when it has none yet.
  void update(bool wanted, const std::shared_ptr<const attn::hf::Checkpoint>& checkpoint,
              const std::shared_ptr<const ModelTokens>& tokens, const ModelAnalysis* analysis) {
    if (auto o = runner_.take()) {
      if (o->done() && o->result) result_ = std::make_shared<const Result>(std::move(*o->result));
      else if (o->failed()) error_ = o->error;
      else if (o->cancelled()) cancelled_ = true;
    }
    if (!wanted || !checkpoint || !tokens || !analysis || !analysis->forward || !applies_(checkpoint->config(), *analysis))
      return;
    if (asked_.lock() == analysis->forward) return;
    asked_ = analysis->forward;
    error_.clear();
    cancelled_ = false;
    runner_.submit({checkpoint, tokens, analysis->forward,
                    analysis->predictions.empty() ? TokenPrediction{} : analysis->predictions.front()});
  }
  // The result for `analysis`'s pass, or null while it is computed (or none asked).
  const Result* result(const ModelAnalysis* analysis) const {
    if (!result_ || !analysis || !analysis->forward || result_->forward.lock() != analysis->forward) return nullptr;
    return result_.get();
  }
  bool pending() const { return runner_.busy() || runner_.has_outcome(); }
  bool running() const { return runner_.busy(); }
  // Stops the job; it stays stopped for this pass (cancelled() says so)
  // until retry(), when the next update() starts it again.
  void cancel() {
    runner_.cancel();
    cancelled_ = true;  // a job not yet started is dropped and lands nothing
  }
  bool cancelled() const { return cancelled_; }
  void retry() {
    asked_.reset();
    cancelled_ = false;
    error_.clear();
  }
  TaskProgress progress() const { return runner_.progress(); }
  const std::string& error() const { return error_; }
  void forget() {
    runner_.cancel();
    runner_.discard();
    result_.reset();
    asked_.reset();
    error_.clear();
    cancelled_ = false;
  }
  void wait_idle() { runner_.wait_idle(); }

 private:
  TaskRunner<PassJobInput, Result> runner_;
  Applies applies_;
  std::shared_ptr<const Result> result_;
  std::weak_ptr<const attn::hf::ForwardResult<float>> asked_;
  std::string error_;
  bool cancelled_ = false;
};

}  // namespace model
