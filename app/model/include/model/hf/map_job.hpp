// A Model view job that makes one map when asked (activation patching, the
// quantization map): run in the background with progress and cancel, its
// last result kept and given only for the ids it ran on (`Ids`: the map's
// member holding them), its failure kept as a message.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/tasks/task_runner.hpp"

namespace model {

template <class Input, class Map, std::vector<int> Map::*Ids>
class MapJob {
 public:
  explicit MapJob(std::function<Map(const Input&, TaskControl&)> compute)
      : runner_([compute = std::move(compute)](const Input& in, TaskContext<Map>& c) { return compute(in, c); },
                TaskPolicy::Replace) {}
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }
  void start(Input input) {
    error_.clear();
    runner_.submit(std::move(input));
  }
  void update() {  // one frame: a finished run is taken in
    if (auto o = runner_.take()) {
      if (o->done() && o->result) result_ = std::make_shared<const Map>(std::move(*o->result));
      else if (o->failed()) error_ = o->error;
    }
  }
  // The last finished run on `ids` (the overview's text), or null.
  const Map* result(const std::vector<int>& ids) const { return result_ && (*result_).*Ids == ids ? result_.get() : nullptr; }
  bool running() const { return runner_.busy(); }
  bool pending() const { return runner_.busy() || runner_.has_outcome(); }
  TaskProgress progress() const { return runner_.progress(); }
  const std::string& error() const { return error_; }
  void cancel() { runner_.cancel(); }
  void forget() {
    runner_.cancel();
    runner_.discard();
    result_.reset();
    error_.clear();
  }
  void wait_idle() { runner_.wait_idle(); }

 private:
  TaskRunner<Input, Map> runner_;
  std::shared_ptr<const Map> result_;
  std::string error_;
};

}  // namespace model
