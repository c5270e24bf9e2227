// Which paths open the Model view rather than a scenario: a model folder
// (it holds config.json) or its config.json itself, picked in File > Open
// or dropped on the window. Opening one never replaces the document.
#pragma once

#include <optional>
#include <string>

#include "model/document/app_state.hpp"

namespace model {

// The model folder `path` names, or nullopt when it is not one.
std::optional<std::string> model_folder_of(const std::string& path);
// The folder's own name ("gpt2" for "models/gpt2/"): what titles call the model.
std::string model_folder_name(const std::string& folder);

namespace actions {
// Opens the Model view on `folder` (a new folder starts loading).
void open_model(AppState& s, const std::string& folder);
}  // namespace actions

}  // namespace model
