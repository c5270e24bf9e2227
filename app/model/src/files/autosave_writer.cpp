// The autosave worker: each snapshot or removal is a step on a
// TaskPolicy::Latest runner. A failed write is reported (take_outcome) and
// the next snapshot tries again.
#include "model/files/autosave_writer.hpp"

#include <cstdio>
#include <exception>
#include <utility>

namespace model {

AutosaveWriter::AutosaveWriter(std::string file)
    : file_(std::move(file)),
      lock_(file_),
      runner_([this](const Step& step, TaskContext<std::optional<Outcome>>& task) {
        if (!step) task.land_quietly();  // a removal has nothing to tell the window
        return run(step);
      }, TaskPolicy::Latest) {}

// The last snapshot is written before the run ends: it is what recovery finds.
AutosaveWriter::~AutosaveWriter() { runner_.wait_idle(); }

void AutosaveWriter::submit(AutosaveRecord record) { runner_.submit(std::move(record)); }

void AutosaveWriter::remove() { runner_.submit(std::nullopt); }

void AutosaveWriter::set_on_written(std::function<void()> wake) { runner_.set_wake(std::move(wake)); }

std::optional<AutosaveWriter::Outcome> AutosaveWriter::run(const Step& step) const {
  if (!step) {
    std::remove(file_.c_str());
    return std::nullopt;
  }
  Outcome outcome;
  try {
    write_autosave(file_, *step);
  } catch (const std::exception& e) {
    outcome.ok = false;
    outcome.error = e.what();
  }
  return outcome;
}

std::optional<AutosaveWriter::Outcome> AutosaveWriter::take_outcome() {
  std::optional<Outcome> last;
  while (std::optional<TaskOutcome<std::optional<Outcome>>> o = runner_.take())
    if (o->result && *o->result) last = **o->result;
  return last;
}

}  // namespace model
