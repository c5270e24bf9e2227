// The edited flag: content compared with the saved file, cached per revision
// because it is asked several times a frame and large scenes hold megabytes.
#include "model/document/app_state.hpp"

namespace model {

bool AppState::dirty() const {
  if (dirty_revision_ != revision || dirty_document_ != document || dirty_saved_ != saved_version) {
    dirty_ = !attn::scenario_difference(doc.scenario, saved).empty();
    dirty_revision_ = revision;
    dirty_document_ = document;
    dirty_saved_ = saved_version;
  }
  return dirty_;
}

}  // namespace model
