// The Model view's overview runs in float32, as PyTorch runs these
// checkpoints. Rather than claim a bound that some model and text exceed
// (GPT-2 small drifts 2.3e-4 by layer 11 at 1,001 tokens in PyTorch float32),
// each finished float32 pass is measured against float64 in the background,
// one layer at a time, and the view states the figure for this model and text.
#pragma once

#include <memory>
#include <string>

#include "attn/hf/forward/precision_gap.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

class PrecisionCheck {
 public:
  PrecisionCheck();
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }
  // Measures `pass` (replacing a check still running for an older one).
  void start(std::shared_ptr<const attn::hf::Checkpoint> checkpoint,
             std::shared_ptr<const attn::hf::ForwardResult<float>> pass, std::vector<attn::hf::HeadRef> heads_off,
             attn::hf::AblationMode mode);
  void reset();  // another model, or none
  void take();   // a finished measurement, if any (UI thread)
  bool busy() const { return runner_.busy(); }
  bool pending() const { return runner_.busy() || runner_.has_outcome(); }
  void wait_idle() { runner_.wait_idle(); }
  // "Computed in float32, within 2.1e-05 of float64 on this text
  // (measured)." — or what is known so far; the detail says where.
  const std::string& line() const { return line_; }
  std::string detail() const;
  const std::optional<attn::hf::PrecisionGap>& gap() const { return gap_; }

 private:
  struct Input {
    std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
    std::shared_ptr<const attn::hf::ForwardResult<float>> pass;
    std::vector<attn::hf::HeadRef> heads_off;
    attn::hf::AblationMode mode = attn::hf::AblationMode::Zero;
  };
  TaskRunner<Input, attn::hf::PrecisionGap> runner_;
  std::optional<attn::hf::PrecisionGap> gap_;
  std::string line_;
};

// The line for a measured gap (or "measuring" when none yet), and its longer
// explanation with the place of the largest difference: pure, tested.
std::string precision_text(const std::optional<attn::hf::PrecisionGap>& gap, bool measuring);
std::string precision_detail(const std::optional<attn::hf::PrecisionGap>& gap);

}  // namespace model
