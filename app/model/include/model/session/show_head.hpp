// A head of a real model, built by the Model view, turned into the request
// that shows it in the pipeline view. The session wires the compare view in
// here: the layer replaces the compare view, or, with heads switched off,
// opens it at once on every head on (A) against them off (B).
#pragma once

#include "model/compare/compare.hpp"
#include "model/document/app_state.hpp"
#include "model/hf/model_session.hpp"

namespace model {

// The request closes the Model view (`model`) once shown. `model` and
// `compare` must outlive it (the session's features do).
PendingAction show_head_action(HeadToShow head, ModelUi& model, CompareState& compare);

}  // namespace model
