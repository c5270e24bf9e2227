// The view is written in the model's vocabulary. The model layer
// (app/model, namespace model) knows nothing of the view; the view (namespace
// viz) reads and edits the model's types by their plain names, so this one
// using-directive is where the direction of the dependency is spelled out.
#pragma once

namespace model {}

namespace viz {
using namespace ::model;
}  // namespace viz
