// Frames of a headless ModelSession until it has nothing left to start or
// take in (shared by the model session tests): what a shown head's layer
// came back as, if one did.
#pragma once

#include <optional>

#include "model/hf/model_session.hpp"

inline std::optional<model::HeadToShow> settle_model(model::ModelSession& s, model::ModelUi& ui) {
  std::optional<model::HeadToShow> shown;
  for (int i = 0; i < 20; ++i) {
    s.wait_idle();
    if (auto a = s.update(ui, model::ColourmapId::Viridis)) shown = std::move(a);
    if (!s.pending(ui)) break;
  }
  return shown;
}
