// Fitting a panel's text to its height by scaling it. Wrapped text at scale
// s is about s times as tall per line and has about s times as many lines,
// so its height grows as s²: one measurement is enough to land close, and a
// panel settles within a frame or two without bouncing.
#pragma once

namespace model {

// The scale for the next frame, from this frame's scale, the height the text
// took at it and the height the panel has: smaller when it overflowed,
// larger (up to 1) when it used less than 85% of the room, else unchanged.
// Never below `smallest`.
float fit_lesson_text(float scale, float used, float room, float smallest = 0.5f);

}  // namespace model
