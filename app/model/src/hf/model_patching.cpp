// The Model view's activation patching (model_patching.hpp): the corrupted
// prompt is tokenized in the job, the runs are float32 like the overview,
// and each patched run reports as it ends.
#include "model/hf/model_patching.hpp"

#include <stdexcept>
#include <utility>

namespace model {

namespace {

// The one token `text` encodes to, or -1 for "" (the run's own guess).
int one_token(const ModelTokens& tokens, const std::string& text, const char* role) {
  if (text.empty()) return -1;
  const std::vector<int> ids = tokens.encode(text);
  if (ids.size() != 1)
    throw std::runtime_error("the " + std::string(role) + " \"" + text + "\" is " + std::to_string(ids.size()) +
                             " tokens; it must be one (a leading space often belongs to the token)");
  return ids.front();
}

PatchMap compute_patching(const PatchInput& in, TaskControl& control) {
  attn::hf::PatchMetric metric;
  metric.answer = one_token(*in.tokens, in.answer, "answer");
  metric.wrong = one_token(*in.tokens, in.wrong, "wrong token");
  PatchMap m;
  m.clean = in.clean;
  m.corrupted = in.tokens->encode(in.corrupted);
  m.corrupted_text = in.corrupted;
  for (int id : m.corrupted) m.corrupted_labels.push_back(in.tokens->text(id));
  m.site = in.site;
  control.report(0, 0, "patching");
  m.result = attn::hf::patch_activations<float>(*in.checkpoint, m.clean, m.corrupted, metric, in.site, [&](int done, int total) {
    control.report(done, total, "patching");
    return !control.cancelled();
  });
  m.answer_text = in.tokens->text(m.result.answer);
  m.wrong_text = in.tokens->text(m.result.wrong);
  return m;
}

}  // namespace

ModelPatching::ModelPatching() : MapJob(compute_patching) {}

}  // namespace model
