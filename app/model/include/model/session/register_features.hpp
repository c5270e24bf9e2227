// The one place the app's features are named: the session registers them
// here, in the order they update and the View menu lists them.
#pragma once

#include "model/feature/feature_set.hpp"

namespace model {

void register_features(FeatureSet& features);

}  // namespace model
