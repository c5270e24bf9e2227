// What the window's title (the menu bar's right end) names: the Model view's
// model folder while that view is open, the Train view's task and layers
// while that one is, else the document (its file, the label of a scene that
// is no file, or the built-in lesson). One rule, so the title never names
// the lesson behind the Model or Train view or a stale layer.
#pragma once

#include <string>

#include "model/document/app_state.hpp"
#include "model/hf/model_ui.hpp"
#include "model/train/train_ui.hpp"

namespace model {

std::string window_where(const AppState& s, const ModelUi& model, const TrainUi& train);

}  // namespace model
