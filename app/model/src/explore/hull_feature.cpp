// HullFeature: the hull follows the trace and the head shown.
#include "model/explore/hull_feature.hpp"

#include "model/document/app_state.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

void HullFeature::update(FeatureFrame& frame) {
  if (shown_ && frame.trace.has_trace()) model.update(frame.trace.trace(), frame.trace.generation(), frame.state.view.head);
}

}  // namespace model
