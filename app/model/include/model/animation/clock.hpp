// The only thing that advances animation time. Playback, stepping and
// scrubbing change `t`; everything else reads it and evaluates the timeline.
#pragma once

#include "model/animation/timeline.hpp"

namespace model {

struct Clock {
  double t = 0;
  double speed = 1.0;  // multiplier, > 0
  bool playing = false;
  double stop_at = -1;  // > 0: playing stops here (a lesson plays one range); cleared by any step or scrub

  // Advances by dt wall seconds when playing; stops at the end.
  void tick(const Timeline& tl, double dt);
  void play(const Timeline& tl);  // restarts from 0 when at the end
  // Plays [from, to] once and stops at `to`.
  void play_range(const Timeline& tl, double from, double to);
  void pause() { playing = false; }
  void step_forward(const Timeline& tl);
  void step_back(const Timeline& tl);
  void scrub(const Timeline& tl, double to);
  void to_end(const Timeline& tl);
  bool animating() const { return playing; }
};

}  // namespace model
