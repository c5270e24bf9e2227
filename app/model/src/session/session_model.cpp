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
               h = show.head, layer = head.layer, ids = head.ids](AppState& s) {
    model.open = false;  // the pipeline view shows the head
    compare.open = false;
    model.in_pipeline = ModelUi::InPipeline{layer, ids, s.revision};
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
  if (const std::optional<ModelScoreCell> cell = pinned_model_score()) view.session.ask_sources(view.ui.in_pipeline->ids, *cell);
  if (!head) return;
  actions::request(state_, show_head_action(std::move(*head), view.ui, features_.get<CompareFeature>().state()));
  // --stage and --inspect name the scene just opened: apply them to it.
  if (options_.start.after_model_scene) {
    options_.start.after_model_scene = false;
    start_applied_ = false;
  }
}

std::optional<ModelScoreCell> Session::pinned_model_score() const {
  const ModelViewFeature& view = features_.get<ModelViewFeature>();
  const auto& shown = view.ui.in_pipeline;
  if (!shown || shown->revision != state_.revision || !state_.pinned) return std::nullopt;
  const CellRef& c = *state_.pinned;
  if (c.stage.head < 0 || !attn::is_query_key_grid(c.stage.id)) return std::nullopt;
  return ModelScoreCell{shown->layer, c.stage.head, c.row, c.col};
}

const attn::SourceSplit* Session::inspected_sources() const {
  const std::optional<ModelScoreCell> cell = pinned_model_score();
  if (!cell) return nullptr;
  const ModelViewFeature& view = features_.get<ModelViewFeature>();
  const ModelSourceSplit* r = view.session.sources().result(view.ui.in_pipeline->ids, *cell);
  return r ? &r->split : nullptr;
}

std::string Session::inspected_sources_status() const {
  if (!pinned_model_score() || inspected_sources()) return "";
  const ModelSources& sources = features_.get<ModelViewFeature>().session.sources();
  if (!sources.error().empty()) return "Not split by source: " + sources.error();
  return "Splitting this score by the sources of the residual stream…";
}

}  // namespace model
