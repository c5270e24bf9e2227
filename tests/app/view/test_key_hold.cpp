// Key releases held for a frame: a key tapped between two frames is seen
// pressed by exactly one frame, then released; a key a frame saw down is
// released at once.
#include <doctest/doctest.h>

#include "model/animation/key_hold.hpp"

TEST_CASE("key hold: a tap between two frames shows for one frame, then its release is passed on") {
  model::KeyHold hold;
  CHECK(hold.frame_start().empty());
  CHECK(hold.on_key({90, 1, 2}, true));    // Z down: passed on
  CHECK_FALSE(hold.on_key({90, 1, 2}, false));  // Z up before any frame saw it: held
  CHECK(hold.frame_start().empty());  // this frame sees Z down
  const std::vector<model::KeyHold::Event> released = hold.frame_start();  // the next one sees it up
  REQUIRE(released.size() == 1);
  CHECK(released[0].key == 90);
  CHECK(released[0].scancode == 1);
  CHECK(released[0].mods == 2);
  CHECK(hold.frame_start().empty());
}

TEST_CASE("key hold: a key a frame saw down is released at once, unless a press waits, then every release waits") {
  model::KeyHold hold;
  CHECK(hold.on_key({341, 0, 0}, true));  // Ctrl down
  CHECK(hold.frame_start().empty());       // a frame sees Ctrl down
  CHECK(hold.on_key({341, 0, 0}, false));  // nothing else pressed: Ctrl up at once
  CHECK(hold.on_key({341, 0, 0}, true));
  CHECK(hold.frame_start().empty());
  CHECK(hold.on_key({90, 0, 2}, true));
  // GLFW on X11 reports Ctrl's release before Z's: Ctrl must still be down
  // for the frame that sees Z.
  CHECK_FALSE(hold.on_key({341, 0, 0}, false));
  CHECK_FALSE(hold.on_key({90, 0, 2}, false));
  CHECK(hold.frame_start().empty());
  CHECK(hold.frame_start().size() == 2);
  // Ctrl and Z tapped together between two frames: both held.
  CHECK(hold.on_key({341, 0, 0}, true));
  CHECK(hold.on_key({90, 0, 2}, true));
  CHECK_FALSE(hold.on_key({90, 0, 2}, false));
  CHECK_FALSE(hold.on_key({341, 0, 0}, false));
  CHECK(hold.frame_start().empty());
  CHECK(hold.frame_start().size() == 2);
}

TEST_CASE("key hold: a key tapped again while its release waits keeps the new tap's modifiers down") {
  model::KeyHold hold;
  // Ctrl+Z tapped, seen by one frame...
  hold.on_key({341, 0, 0}, true);
  hold.on_key({90, 0, 2}, true);
  hold.on_key({90, 0, 2}, false);
  hold.on_key({341, 0, 0}, false);
  CHECK(hold.frame_start().empty());
  // ...then Ctrl+Y before the next frame: Ctrl's old release must not reach
  // that frame (it would see Y without Ctrl).
  hold.on_key({341, 0, 0}, true);
  hold.on_key({89, 0, 2}, true);
  CHECK_FALSE(hold.on_key({89, 0, 2}, false));
  CHECK_FALSE(hold.on_key({341, 0, 0}, false));
  const std::vector<model::KeyHold::Event> now = hold.frame_start();
  REQUIRE(now.size() == 1);
  CHECK(now[0].key == 90);  // Z's release only; Ctrl stays down for Y's frame
  CHECK(hold.frame_start().size() == 2);  // then Y and Ctrl
}
