// The Model view's side of the session's frame: ModelUi's folder, text and
// switched-off heads carried to the model session's jobs, and a head's layer,
// once built, opened in the pipeline view like a trained layer.
#include "model/document/app_actions.hpp"
#include "model/session/session.hpp"

namespace model {

void Session::update_model() {
  std::optional<PendingAction> show = hf_.update(state_.hf, state_.view.colour.probability_map);
  if (!show) return;
  actions::request(state_, std::move(*show));
  // --stage and --inspect name the scene just opened: apply them to it.
  if (options_.start.after_model_scene) {
    options_.start.after_model_scene = false;
    start_applied_ = false;
  }
}

}  // namespace model
