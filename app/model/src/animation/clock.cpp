// Playback clock: the one place animation time changes.
#include "model/animation/clock.hpp"

#include <algorithm>

namespace model {

void Clock::tick(const Timeline& tl, double dt) {
  if (!playing) return;
  const double end = stop_at > 0 ? std::min(stop_at, tl.total) : tl.total;
  t = std::min(t + dt * speed, end);
  if (t >= end) {
    playing = false;
    stop_at = -1;
  }
}

void Clock::play_range(const Timeline& tl, double from, double to) {
  t = std::clamp(from, 0.0, tl.total);
  stop_at = std::clamp(to, t, tl.total);
  playing = stop_at > t;
}

void Clock::play(const Timeline& tl) {
  stop_at = -1;
  if (t >= tl.total) t = 0;
  playing = tl.total > 0;
}

void Clock::step_forward(const Timeline& tl) {
  playing = false;
  stop_at = -1;
  t = next_boundary(tl, t);
}

void Clock::step_back(const Timeline& tl) {
  playing = false;
  stop_at = -1;
  t = previous_boundary(tl, t);
}

void Clock::scrub(const Timeline& tl, double to) {
  playing = false;
  stop_at = -1;
  t = std::clamp(to, 0.0, tl.total);
}

void Clock::to_end(const Timeline& tl) {
  playing = false;
  stop_at = -1;
  t = tl.total;
}

}  // namespace model
