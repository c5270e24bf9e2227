// Measures float32 against float64 off the UI thread (precision_check.hpp).
#include "model/hf/precision_check.hpp"

#include "attn/explain.hpp"

namespace model {

PrecisionCheck::PrecisionCheck()
    : runner_(
          [](const Input& in, TaskContext<attn::hf::PrecisionGap>& control) {
            attn::hf::PrecisionGap gap = attn::hf::float_precision_gap(
                *in.checkpoint, *in.pass, in.heads_off, in.mode, [&](int) { return !control.cancelled(); });
            control.throw_if_cancelled();
            return gap;
          },
          TaskPolicy::Replace, {true}),
      line_(precision_text(std::nullopt, false)) {}

void PrecisionCheck::start(std::shared_ptr<const attn::hf::Checkpoint> checkpoint,
                           std::shared_ptr<const attn::hf::ForwardResult<float>> pass,
                           std::vector<attn::hf::HeadRef> heads_off, attn::hf::AblationMode mode) {
  gap_.reset();
  runner_.submit({std::move(checkpoint), std::move(pass), std::move(heads_off), mode});
  line_ = precision_text(gap_, true);
}

void PrecisionCheck::reset() {
  runner_.cancel();
  runner_.discard();
  gap_.reset();
  line_ = precision_text(gap_, false);
}

void PrecisionCheck::take() {
  if (auto o = runner_.take()) {
    if (o->done() && o->result) gap_ = *o->result;
    line_ = precision_text(gap_, runner_.busy());
  }
}

std::string precision_text(const std::optional<attn::hf::PrecisionGap>& gap, bool measuring) {
  const std::string f32 = attn::hf::precision_name<float>(), f64 = attn::hf::precision_name<double>();
  const std::string head = "Computed in " + f32 + ", as PyTorch runs these checkpoints";
  const std::string tail = "; a head opened in the pipeline is recomputed in " + f64 + ".";
  if (gap && gap->layer >= 0)
    return head + "; on this text every weight is within " + attn::format_number(gap->max_abs, 3) + " of " + f64 +
           " (measured; the largest at layer " + std::to_string(gap->layer) + ", head " + std::to_string(gap->head) +
           ")" + tail;
  if (measuring) return head + "; measuring how far it is from " + f64 + " on this text..." + tail;
  return head + tail;
}

}  // namespace model
