// The Model view's overview runs in float32, as PyTorch runs these
// checkpoints. Rather than claim a bound that some model and text exceed
// (GPT-2 small drifts 2.3e-4 by layer 11 at 1,001 tokens in PyTorch float32),
// each finished float32 pass is measured against float64 in the background,
// one layer at a time, and the view states the figure for this model and text.
// That float64 pass is kept (each layer's input only) for the pipeline's
// scenes, which are float64 too: opening a head then runs no second one.
#pragma once

#include <memory>
#include <string>

#include "attn/hf/forward/precision_gap.hpp"
#include "model/hf/forward_counts.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

class PrecisionCheck {
 public:
  PrecisionCheck();
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }
  // Measures `pass` (replacing a check still running for an older one).
  // `counts` (may be null) counts its float64 pass and must outlive it.
  void start(std::shared_ptr<const attn::hf::Checkpoint> checkpoint,
             std::shared_ptr<const attn::hf::ForwardResult<float>> pass, std::vector<attn::hf::HeadRef> heads_off,
             attn::hf::AblationMode mode, ForwardCounts* counts = nullptr);
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
  // The finished float64 pass of the last measurement, with the residual
  // stream entering each layer kept (null while measuring or when cancelled):
  // n x d_model doubles a layer. GPT-2 small at 1,024 tokens: 6 MB a layer,
  // 75 MB in all; a 2,048-token text on a Llama-2-7B shape: 67 MB a layer,
  // 2.1 GB for 32 layers, an eighth of the float32 maps the overview keeps.
  const std::shared_ptr<const attn::hf::ForwardResult<double>>& float64_pass() const { return float64_; }

 private:
  struct Input {
    std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
    std::shared_ptr<const attn::hf::ForwardResult<float>> pass;
    std::vector<attn::hf::HeadRef> heads_off;
    attn::hf::AblationMode mode = attn::hf::AblationMode::Zero;
    ForwardCounts* counts = nullptr;
  };
  struct Measured {
    attn::hf::PrecisionGap gap;
    std::shared_ptr<const attn::hf::ForwardResult<double>> float64;  // null when cancelled
  };
  TaskRunner<Input, Measured> runner_;
  std::optional<attn::hf::PrecisionGap> gap_;
  std::shared_ptr<const attn::hf::ForwardResult<double>> float64_;
  std::string line_;
};

// The line for a measured gap (or "measuring" when none yet), and its longer
// explanation with the place of the largest difference: pure, tested.
std::string precision_text(const std::optional<attn::hf::PrecisionGap>& gap, bool measuring);
std::string precision_detail(const std::optional<attn::hf::PrecisionGap>& gap);

}  // namespace model
