// Key releases held for a frame (see key_hold.hpp).
#include "model/animation/key_hold.hpp"

#include <algorithm>
#include <utility>

namespace model {

bool KeyHold::on_key(const Event& e, bool press) {
  if (press) {
    fresh_.insert(e.key);
    // Tapped again while its last release waits: that release is stale (the
    // key is down again, and this tap's own release is held in its turn).
    // Passed on, it would lift Ctrl under the next Ctrl+Y.
    for (std::vector<Event>* q : {&due_, &held_})
      q->erase(std::remove_if(q->begin(), q->end(), [&](const Event& d) { return d.key == e.key; }), q->end());
    return true;
  }
  // While any press waits to be seen, every release waits too: a frame must
  // see a chord whole. (GLFW on X11 reports Ctrl's release before Z's.)
  if (fresh_.empty()) return true;  // a frame saw every key down: release now
  held_.push_back(e);
  return false;
}

std::vector<KeyHold::Event> KeyHold::frame_start() {
  // The frame that begins now sees the keys of held_ down; the releases held
  // before the last frame are passed on.
  std::vector<Event> out = std::move(due_);
  due_ = std::move(held_);
  held_.clear();
  fresh_.clear();
  return out;
}

}  // namespace model
