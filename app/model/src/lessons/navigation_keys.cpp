// Navigation keys (see navigation_keys.hpp).
#include "model/lessons/navigation_keys.hpp"

#include "model/lessons/lesson_actions.hpp"

namespace model {

void press_nav_key(AppState& s, LessonState& l, NavKey key, const attn::Trace* trace, const Timeline& tl) {
  Clock& clock = s.clock;
  ViewOptions& view = s.view;
  if (key == NavKey::Escape) {
    if (view.presentation) view.presentation = false;
    else if (s.pinned) s.pinned.reset();
    else if (view.zoom_stage) view.zoom_stage.reset();
    return;
  }
  const bool clicker = l.lesson && (view.presentation || key == NavKey::PageDown || key == NavKey::PageUp);
  switch (key) {
    case NavKey::Space:
    case NavKey::Right:
    case NavKey::PageDown:
      if (clicker) actions::clicker_next(s, l, trace, tl);
      else if (key != NavKey::Space || view.presentation) clock.step_forward(tl);
      else if (clock.playing) clock.pause();
      else clock.play(tl);
      break;
    case NavKey::Left:
    case NavKey::PageUp:
      if (clicker) actions::clicker_back(s, l, trace, tl);
      else clock.step_back(tl);
      break;
    case NavKey::Escape: break;
  }
}

}  // namespace model
