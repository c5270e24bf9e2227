// The "Why scale" panel as a feature: its inputs and histograms, sampled
// again only when an input changes (WhyScaleModel). It needs no trace.
#pragma once

#include "model/explore/why_scale_model.hpp"
#include "model/feature/feature.hpp"

namespace model {

class WhyScaleFeature : public PanelFeature {
 public:
  std::string_view name() const override { return "why_scale"; }
  void update(FeatureFrame&) override {
    if (shown_) model.update();
  }

  WhyScaleModel model;  // the panel edits its inputs

};

}  // namespace model
