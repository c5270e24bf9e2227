// TexelStep: prepare_texels as a job of its own, one trace at a time (a
// newer trace cancels the texels of an older one).
#include "model/session/texel_step.hpp"

#include <chrono>

namespace model {

TexelStep::TexelStep()
    : runner_([](const Job& job, TaskContext<Made>& task) { return make(job, task); }, TaskPolicy::Replace) {}

TexelStep::Made TexelStep::make(const Job& job, TaskControl& task) {
  const auto start = std::chrono::steady_clock::now();
  std::atomic<bool> cancel{false};
  task.link_cancel(cancel);
  Made m;
  m.trace = job.trace;
  m.texels = std::make_shared<const PreparedTexels>(prepare_texels(*job.trace, *job.ranges, job.request, &cancel));
  m.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return m;
}

void TexelStep::begin(std::shared_ptr<const attn::Trace> trace, std::shared_ptr<const RowRanges> ranges) {
  // One step under the lock with finished(): it never sees this trace begun
  // and the runner idle before the job is submitted.
  std::lock_guard<std::mutex> lock(mutex_);
  begun_ = trace;
  runner_.submit(Job{std::move(trace), std::move(ranges), request_});
}

bool TexelStep::finished(const attn::Trace& trace) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // Not begun for it yet: it begins once the trace has landed.
  return begun_.lock().get() == &trace && !runner_.busy();
}

void TexelStep::cancel() {
  runner_.cancel();
  runner_.discard();
}

const PreparedTexels* TexelStep::made_for(const attn::Trace& trace) {
  while (std::optional<TaskOutcome<Made>> o = runner_.take())
    if (o->done()) {
      made_ = std::move(o->result);
      last_ms_ = made_->ms;
    }
  if (made_ && made_->trace.lock().get() != &trace) made_.reset();  // made for a trace no longer shown
  return made_ ? made_->texels.get() : nullptr;
}

}  // namespace model
