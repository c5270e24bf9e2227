// Measures float32 against float64 off the UI thread (precision_check.hpp).
#include "model/hf/precision_check.hpp"

#include "attn/text/format_number.hpp"

namespace model {

PrecisionCheck::PrecisionCheck()
    : runner_(
          [](const Input& in, TaskContext<Measured>& control) {
            const std::function<bool(int)> go_on = [&](int) { return !control.cancelled(); };
            auto pass = std::make_shared<attn::hf::ForwardResult<double>>();
            Measured m;
            m.gap = attn::hf::float_precision_gap(*in.checkpoint, *in.pass, in.heads_off, in.mode,
                                                  in.counts ? in.counts->pass<double>(go_on) : go_on, pass.get());
            control.throw_if_cancelled();
            if (!m.gap.cancelled) m.float64 = std::move(pass);
            return m;
          },
          TaskPolicy::Replace),
      line_(precision_text(std::nullopt, false)) {}

void PrecisionCheck::start(std::shared_ptr<const attn::hf::Checkpoint> checkpoint,
                           std::shared_ptr<const attn::hf::ForwardResult<float>> pass,
                           std::vector<attn::hf::HeadRef> heads_off, attn::hf::AblationMode mode,
                           ForwardCounts* counts) {
  gap_.reset();
  float64_.reset();
  runner_.submit({std::move(checkpoint), std::move(pass), std::move(heads_off), mode, counts});
  line_ = precision_text(gap_, true);
}

void PrecisionCheck::reset() {
  runner_.cancel();
  runner_.discard();
  gap_.reset();
  float64_.reset();
  line_ = precision_text(gap_, false);
}

std::string PrecisionCheck::detail() const { return precision_detail(gap_); }

void PrecisionCheck::take() {
  if (auto o = runner_.take()) {
    if (o->done() && o->result) {
      gap_ = o->result->gap;
      float64_ = o->result->float64;
    }
    line_ = precision_text(gap_, runner_.busy());
  }
}

std::string precision_text(const std::optional<attn::hf::PrecisionGap>& gap, bool measuring) {
  const std::string f32 = attn::hf::precision_name<float>(), f64 = attn::hf::precision_name<double>();
  // Short: at 1024x768 the left column is about 40 characters wide, and the
  // predictions below must stay on screen. The rest is precision_detail's.
  if (gap && gap->layer >= 0)
    return "Computed in " + f32 + ", within " + attn::format_number(gap->max_abs, 3) + " of " + f64 +
           " on this text (measured).";
  if (measuring) return "Computed in " + f32 + "; measuring how far from " + f64 + "...";
  return "Computed in " + f32 + ".";
}

std::string precision_detail(const std::optional<attn::hf::PrecisionGap>& gap) {
  const std::string f64 = attn::hf::precision_name<double>();
  std::string s = "The overview, the head view and the predictions are computed in " +
                  std::string(attn::hf::precision_name<float>()) + ", as PyTorch runs these checkpoints. Each pass is "
                  "measured against " + f64 + " in the background, one layer at a time";
  if (gap && gap->layer >= 0)
    s += ": the largest difference in any attention weight is " + attn::format_number(gap->max_abs, 3) + ", at layer " +
         std::to_string(gap->layer) + ", head " + std::to_string(gap->head) + " (query " + std::to_string(gap->query) +
         ", key " + std::to_string(gap->key) + ")";
  return s + ". A head opened in the pipeline is shown in " + f64 + ", cut from that measuring pass once it is done.";
}

}  // namespace model
