// How many forward passes the Model view's jobs started and how many layers
// they computed, per precision: what the tests read to hold the view to
// computing each layer once per need (issue 41), and what the model
// benchmark prints. Jobs count on their own threads; anyone may read.
#pragma once

#include <atomic>
#include <functional>
#include <string>

namespace model {

struct PassCount {
  long long passes = 0;  // started, from the embeddings or resumed from a kept layer
  long long layers = 0;  // layers computed; a resumed pass counts only its own
};

class ForwardCounts {
 public:
  // Counts one pass in precision S and gives the ForwardOptions::progress
  // for it: each call is one more layer computed, then `next` decides
  // whether to go on (cancelling works as before). The counts must outlive
  // the pass: ModelSession keeps them ahead of its runners, which join.
  template <class S>
  std::function<bool(int)> pass(std::function<bool(int)> next = {}) {
    Counters& c = counters<S>();
    c.passes.fetch_add(1);
    return [&c, next = std::move(next)](int done) {
      c.layers.fetch_add(1);
      return next ? next(done) : true;
    };
  }
  template <class S>
  PassCount of() const {
    const Counters& c = sizeof(S) == sizeof(float) ? float32_ : float64_;
    return {c.passes.load(), c.layers.load()};
  }
  // "float32: 1 pass, 12 layers; float64: 2 passes, 15 layers" (test messages, the benchmark).
  std::string line() const {
    const auto part = [](const char* name, PassCount p) {
      return std::string(name) + ": " + std::to_string(p.passes) + (p.passes == 1 ? " pass, " : " passes, ") +
             std::to_string(p.layers) + (p.layers == 1 ? " layer" : " layers");
    };
    return part("float32", of<float>()) + "; " + part("float64", of<double>());
  }

 private:
  struct Counters {
    std::atomic<long long> passes{0}, layers{0};
  };
  template <class S>
  Counters& counters() {
    return sizeof(S) == sizeof(float) ? float32_ : float64_;
  }
  Counters float32_, float64_;
};

}  // namespace model
