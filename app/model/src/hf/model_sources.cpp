// A real model's score split by source (model_sources.hpp), in float64 on a
// TaskRunner: the split runs its own pass up to the layer (about half a
// second for GPT-2 small at 128 tokens), so it never runs in a frame.
#include "model/hf/model_sources.hpp"

#include <utility>

#include "attn/hf/why/score_sources.hpp"

namespace model {

ModelSources::ModelSources()
    : runner_(
          [](const SourcesInput& in, TaskContext<ModelSourceSplit>& control) {
            control.report(0, 0, "splitting the score by source");
            ModelSourceSplit out{in.ids, in.cell,
                                 attn::hf::split_score_by_source(*in.checkpoint, in.ids, in.cell.layer, in.cell.head,
                                                                 in.cell.query, in.cell.key)};
            control.throw_if_cancelled();
            return out;
          },
          TaskPolicy::Replace) {}

void ModelSources::ask(const std::shared_ptr<const attn::hf::Checkpoint>& checkpoint, const std::vector<int>& ids,
                       const ModelScoreCell& cell) {
  if (!checkpoint || (asked_.checkpoint == checkpoint && asked_.ids == ids && asked_.cell == cell)) return;
  asked_ = {checkpoint, ids, cell};
  error_.clear();
  runner_.submit(asked_);
}

void ModelSources::update() {
  if (auto o = runner_.take()) {
    if (o->done() && o->result) result_ = std::make_shared<const ModelSourceSplit>(std::move(*o->result));
    else if (o->failed()) error_ = o->error;
  }
}

const ModelSourceSplit* ModelSources::result(const std::vector<int>& ids, const ModelScoreCell& cell) const {
  return result_ && result_->ids == ids && result_->cell == cell ? result_.get() : nullptr;
}

void ModelSources::forget() {
  runner_.cancel();
  runner_.discard();
  result_.reset();
  asked_ = {};
  error_.clear();
}

}  // namespace model
