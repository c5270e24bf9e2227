// The Model view's side of the session's frame: a folder the document asked
// for, then ModelUi's folder, text and switched-off heads carried to the
// model session's jobs, and a head's layer, once built, opened in the
// pipeline view like a trained layer.
#include <utility>

#include "model/compare/compare_actions.hpp"
#include "model/compare/compare_feature.hpp"
#include "model/document/app_actions.hpp"
#include "model/hf/model_folder.hpp"
#include "model/hf/model_view_feature.hpp"
#include "model/train/train_feature.hpp"
#include "model/session/session.hpp"
#include "model/session/show_head.hpp"

namespace model {

PendingAction show_head_action(HeadToShow head, ModelUi& model, CompareState& compare) {
  PendingAction show;
  show.kind = PendingAction::Kind::ShowScene;
  show.scene = std::move(head.scene);
  show.label = std::move(head.label);
  show.head = head.head;
  show.then = [&model, &compare, off = head.switched_off, label = head.off_label, on = head.on_label,
               h = show.head](AppState& s) {
    model.open = false;  // the pipeline view shows the head
    compare.open = false;
    if (off) actions::compare_switched_off(s, compare, *off, on, label, h);
  };
  return show;
}

void Session::update_model() {
  ModelViewFeature& view = features_.get<ModelViewFeature>();
  if (!state_.model_request.empty()) {
    choose_model_folder(view.ui, std::exchange(state_.model_request, {}));
    features_.get<TrainFeature>().ui.open = false;  // the Model view takes the Train view's place
  }
  std::optional<HeadToShow> head = view.session.update(view.ui, state_.view.colour.probability_map);
  if (!head) return;
  actions::request(state_, show_head_action(std::move(*head), view.ui, features_.get<CompareFeature>().state()));
  // --stage and --inspect name the scene just opened: apply them to it.
  if (options_.start.after_model_scene) {
    options_.start.after_model_scene = false;
    start_applied_ = false;
  }
}

}  // namespace model
