// Which paths open the Model view rather than a scenario: a model folder
// (it holds config.json), its config.json itself, or a GGUF file, picked in
// File > Open or dropped on the window. Opening one never replaces the document.
#pragma once

#include <optional>
#include <string>

#include "model/hf/model_ui.hpp"

namespace model {

// The model `path` names (a folder, or a GGUF file), or nullopt when it is not one.
std::optional<std::string> model_folder_of(const std::string& path);
// The folder's own name ("gpt2" for "models/gpt2/"): what titles call the model.
std::string model_folder_name(const std::string& folder);

// The Model view's choices set for `folder`: shown, and a new folder starts
// afresh (its heads all on, layer 0) and loads. The document's
// actions::open_model also leaves the Train view (app_actions.hpp).
void choose_model_folder(ModelUi& ui, const std::string& folder);

}  // namespace model
