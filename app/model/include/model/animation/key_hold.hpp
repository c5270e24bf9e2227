// Keys pressed and released between two frames. Dear ImGui 1.86 reads a
// key's state once a frame, so a key down and up again before the next frame
// is never seen pressed: a presenter's clicker (which taps Page Down in a
// few milliseconds), a quick Ctrl+Z, or xdotool lost presses while the app
// waited for events. (ImGui 1.87 queues input events for this reason.) While
// a key pressed since the last frame began is unseen, key releases are held
// back until the frame after, so every press shows for a frame together with
// the keys held with it (Ctrl of a Ctrl+Z, whose release GLFW may report first).
#pragma once

#include <set>
#include <vector>

namespace model {

class KeyHold {
 public:
  struct Event {
    int key = 0, scancode = 0, mods = 0;
  };
  // A key going down (press) or up. Returns whether to pass it on now;
  // false: a release held back (frame_start hands it over later).
  bool on_key(const Event& e, bool press);
  // At the start of each frame, before input is read: the releases to pass
  // on now, held back while the last frame saw their key down.
  std::vector<Event> frame_start();

 private:
  std::set<int> fresh_;           // keys pressed since the last frame began
  std::vector<Event> held_, due_;  // releases held: for the next frame, for this one
};

}  // namespace model
