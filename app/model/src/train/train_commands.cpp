// The Train view's buttons carried out on the training session: start, pause,
// reset with the settings shown (train_commands.hpp).
#include "model/train/train_commands.hpp"

#include <utility>

namespace model {

std::string apply_train_command(TrainSession& session, TrainUi& ui) {
  TrainUi::Command command = std::exchange(ui.command, TrainUi::Command::None);
  if (command == TrainUi::Command::Toggle) command = session.running() ? TrainUi::Command::Pause : TrainUi::Command::Start;
  switch (command) {
    case TrainUi::Command::None:
    case TrainUi::Command::Toggle: return "";
    case TrainUi::Command::Pause: session.pause(); return "";
    case TrainUi::Command::Reset:
      ui.shown = -1;
      return session.reset(ui.settings, ui.max_steps);
    case TrainUi::Command::Start: {
      if (!session.has_run() || !same_run(session.config(), ui.settings)) {
        const std::string error = session.reset(ui.settings, ui.max_steps);
        if (!error.empty()) return error;
      }
      // A run that reached its limit goes on for as many steps again.
      if (session.steps() >= session.max_steps()) session.set_max_steps(session.steps() + ui.max_steps);
      ui.shown = -1;  // follow the newest snapshot while training
      session.start();
      return "";
    }
  }
  return "";
}

}  // namespace model
