// KvCacheFeature: decodes again only when the trace changes (KvCacheModel);
// play moves one token a second on the frame's clock.
#include "model/kv_cache/kv_cache_feature.hpp"

#include <nlohmann/json.hpp>

#include "model/document/app_state.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

void KvCacheFeature::update(FeatureFrame& frame) {
  if (!shown_ || !frame.trace.has_trace()) return;
  model_.update(frame.trace.trace(), frame.trace.scenario(), frame.trace.generation(), frame.state.view.head, choice, frame.dt);
}

void KvCacheFeature::dump(nlohmann::json& out) const { out["kv_cache"] = model_.dump(shown_); }

}  // namespace model
