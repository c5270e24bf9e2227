// The one place the window pairs each feature with its view (the model's
// features are named in model/session/register_features.cpp).
#pragma once

#include "feature/feature_view.hpp"
#include "model/feature/feature_set.hpp"

namespace viz {

void register_views(FeatureViews& views, const model::FeatureSet& features);

}  // namespace viz
