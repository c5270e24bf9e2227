// The "Convex hull" panel as a feature: the head and output chosen, and the
// hull of the value rows rebuilt when the trace or the head changes.
#pragma once

#include "model/explore/hull_view.hpp"
#include "model/feature/feature.hpp"

namespace model {

class HullFeature : public PanelFeature {
 public:
  std::string_view name() const override { return "hull"; }
  void update(FeatureFrame& frame) override;

  HullModel model;  // the panel edits its choices

};

}  // namespace model
