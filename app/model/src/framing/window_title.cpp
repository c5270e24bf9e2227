// The window title's subject (window_title.hpp).
#include "model/framing/window_title.hpp"

#include "attn/train/task.hpp"
#include "model/hf/model_folder.hpp"

namespace model {

std::string window_where(const AppState& s, const ModelUi& model, const TrainUi& train) {
  if (model.open && !model.folder.empty()) return "model " + model_folder_name(model.folder);
  if (model.open) return "Model view";
  // The Train view shows its own model, not the document behind it: name
  // the task and shape its controls are set to.
  if (train.open) {
    const int layers = train.settings.model.n_layers;
    return "Train: " + attn::train::task_name(train.settings.task.kind) + ", " + std::to_string(layers) +
           (layers == 1 ? " layer" : " layers");
  }
  if (!s.path.empty()) return s.path;
  if (!s.doc_label.empty()) return s.doc_label;
  return "built-in lesson";
}

}  // namespace model
