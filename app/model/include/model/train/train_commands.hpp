// The Train view's buttons (TrainUi::command) carried out on the training
// session: Start (a new run when the settings changed, or more steps when
// the run reached its limit), Pause, Reset, and Toggle between them.
#pragma once

#include <string>

#include "model/train/train_session.hpp"
#include "model/train/train_ui.hpp"

namespace model {

// Carries out ui.command and clears it; "" or why the run could not start.
std::string apply_train_command(TrainSession& session, TrainUi& ui);

}  // namespace model
