// The explore panels' views ("Why scale", "Convex hull"): their panels and
// menu entries. Two small features that share a room, as they share a
// purpose: a picture of one idea beside the pipeline.
#pragma once

#include "feature/feature_view.hpp"
#include "model/explore/hull_feature.hpp"
#include "model/explore/why_scale_feature.hpp"

namespace viz {

class WhyScaleFeatureView : public FeatureViewOf<model::WhyScaleFeature> {
 public:
  using FeatureViewOf::FeatureViewOf;
  const char* menu_label() const override { return "Why scale (q·k histogram)"; }
  void draw(const PanelFrame& frame) override;
};

class HullFeatureView : public FeatureViewOf<model::HullFeature> {
 public:
  using FeatureViewOf::FeatureViewOf;
  const char* menu_label() const override { return "Convex hull of the values"; }
  void draw(const PanelFrame& frame) override;
};

}  // namespace viz
