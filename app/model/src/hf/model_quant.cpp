// The Model view's quantization map (model_quant.hpp): the other model is
// opened in the job, then the two float64 passes, each reported as it ends.
#include "model/hf/model_quant.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace model {

std::string weight_types(const attn::hf::Checkpoint& checkpoint) {
  std::map<std::string, std::uint64_t> weights;
  for (const attn::hf::Checkpoint::StoredTensor& t : checkpoint.stored_tensors())
    if (t.dims >= 2) weights[t.type] += t.elements;  // the matrices, not the norms and biases
  std::vector<std::pair<std::uint64_t, std::string>> order;
  for (const auto& [type, count] : weights) order.emplace_back(count, type);
  std::sort(order.rbegin(), order.rend());
  std::string s;
  for (const auto& [count, type] : order) s += (s.empty() ? "" : ", ") + type;
  return s;
}

namespace {

QuantMap compute_quant(const QuantInput& in, TaskControl& control) {
  QuantMap m;
  m.ids = in.ids;
  m.beside = in.beside;
  control.report(0, 2, "opening " + in.beside);
  m.beside_checkpoint = attn::hf::Checkpoint::open(in.beside);
  m.types = weight_types(*in.checkpoint);
  m.beside_types = weight_types(*m.beside_checkpoint);
  control.report(0, 2, "comparing");
  m.divergence = attn::hf::quant_divergence(*in.checkpoint, *m.beside_checkpoint, in.ids, [&](int done) {
    control.report(done, 2, "comparing");
    return !control.cancelled();
  });
  control.throw_if_cancelled();
  return m;
}

}  // namespace

ModelQuant::ModelQuant() : MapJob(compute_quant) {}

}  // namespace model
