// Why a real model's head attends, by source: when the pipeline shows a
// layer the Model view opened, still unedited, and a score (or its weight)
// of it is pinned, that score is split over (query source, key source) of
// the residual stream (attn::hf::split_score_by_source: token and position
// embeddings, each earlier head and MLP, the biases, the norm held at each
// token's scale). Its float64 pass up to the layer runs in the background;
// asking again for the same cell starts nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/why/source_split.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

// A pinned score of a model's layer: the layer, the head and the cell.
struct ModelScoreCell {
  int layer = 0, head = 0, query = 0, key = 0;
  bool operator==(const ModelScoreCell& o) const {
    return layer == o.layer && head == o.head && query == o.query && key == o.key;
  }
};

struct SourcesInput {
  std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
  std::vector<int> ids;
  ModelScoreCell cell;
};

struct ModelSourceSplit {
  std::vector<int> ids;
  ModelScoreCell cell;
  attn::SourceSplit split;
};

class ModelSources {
 public:
  ModelSources();
  void set_wake(const std::function<void()>& wake) { runner_.set_wake(wake); }
  // Starts the split of `cell` on `ids` unless it is the one asked last.
  void ask(const std::shared_ptr<const attn::hf::Checkpoint>& checkpoint, const std::vector<int>& ids,
           const ModelScoreCell& cell);
  void update();  // one frame: a finished split is taken in
  // The split of `cell` on `ids` once done, else null.
  const ModelSourceSplit* result(const std::vector<int>& ids, const ModelScoreCell& cell) const;
  const ModelSourceSplit* latest() const { return result_.get(); }  // the last one made (--dump-state)
  bool pending() const { return runner_.busy() || runner_.has_outcome(); }
  TaskProgress progress() const { return runner_.progress(); }
  const std::string& error() const { return error_; }  // the last ask's, e.g. BERT's refusal
  void forget();
  void wait_idle() { runner_.wait_idle(); }

 private:
  TaskRunner<SourcesInput, ModelSourceSplit> runner_;
  std::shared_ptr<const ModelSourceSplit> result_;
  SourcesInput asked_;
  std::string error_;
};

}  // namespace model
