// Text fitting (see text_fit.hpp).
#include "model/layout/text_fit.hpp"

#include <algorithm>
#include <cmath>

namespace model {

float fit_lesson_text(float scale, float used, float room, float smallest) {
  if (!(used > 0) || !(room > 0) || !(scale > 0)) return 1;
  if (used <= room && (used >= 0.85f * room || scale >= 1)) return std::clamp(scale, smallest, 1.0f);
  // A little under the estimate, so the next frame fits with some room and
  // does not grow again (0.97² ≈ 0.94 of the room, under the 85% mark).
  const float next = scale * std::sqrt(room / used) * 0.97f;
  return std::clamp(next, smallest, 1.0f);
}

}  // namespace model
