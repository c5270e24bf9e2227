// Playback clock: the one place animation time changes.
#include "viz/clock.hpp"

#include <algorithm>

namespace viz {

void Clock::tick(const Timeline& tl, double dt) {
  if (!playing) return;
  t = std::min(t + dt * speed, tl.total);
  if (t >= tl.total) playing = false;
}

void Clock::play(const Timeline& tl) {
  if (t >= tl.total) t = 0;
  playing = tl.total > 0;
}

void Clock::step_forward(const Timeline& tl) {
  playing = false;
  t = next_boundary(tl, t);
}

void Clock::step_back(const Timeline& tl) {
  playing = false;
  t = previous_boundary(tl, t);
}

void Clock::scrub(const Timeline& tl, double to) {
  playing = false;
  t = std::clamp(to, 0.0, tl.total);
}

void Clock::to_end(const Timeline& tl) {
  playing = false;
  t = tl.total;
}

}  // namespace viz
