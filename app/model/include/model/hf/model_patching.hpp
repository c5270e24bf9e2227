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
#include "model/tasks/task_runner.hpp"

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

class ModelPatching {
 public:
  ModelPatching();
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }
  void start(PatchInput input);
  void update();  // one frame: a finished run is taken in
  // The last finished run on the clean ids `clean` (the overview's text), or null.
  const PatchMap* result(const std::vector<int>& clean) const;
  bool running() const { return runner_.busy(); }
  bool pending() const { return runner_.busy() || runner_.has_outcome(); }
  TaskProgress progress() const { return runner_.progress(); }
  const std::string& error() const { return error_; }
  void cancel() { runner_.cancel(); }
  void forget();
  void wait_idle() { runner_.wait_idle(); }

 private:
  TaskRunner<PatchInput, PatchMap> runner_;
  std::shared_ptr<const PatchMap> result_;
  std::string error_;
};

}  // namespace model
