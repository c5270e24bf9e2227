// The one place the window pairs each feature with its view (the model's
// features are named in model/session/register_features.cpp).
#pragma once

#include "feature/feature_view.hpp"
#include "hf/atlas_textures.hpp"
#include "model/feature/feature_set.hpp"

namespace viz {

// `model_textures`: the Model view's atlases, which the App keeps in step.
void register_views(FeatureViews& views, const model::FeatureSet& features, const AtlasTextures& model_textures);

}  // namespace viz
