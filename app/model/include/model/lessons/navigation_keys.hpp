// What the navigation keys do, decided here rather than in the window so
// that a presenter's clicker is tested without one. A clicker sends Page
// Down / Page Up (some Right / Left, some Space); Escape steps back out.
#pragma once

#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/animation/timeline.hpp"

namespace model {

enum class NavKey { Space, Right, Left, PageDown, PageUp, Escape };

// Presenting a lesson, Space, Right and Page Down are the clicker's "next"
// (actions::clicker_next) and Left and Page Up its "back"; in a lesson not
// presented, Page Down and Page Up are. Otherwise Space plays or pauses and
// the others step the animation. Escape leaves presentation at once (a
// pinned cell or a zoom are not visible reasons to stay); not presenting,
// it unpins a cell, then leaves a zoom.
void press_nav_key(AppState& s, LessonState& l, NavKey key, const attn::Trace* trace, const Timeline& tl);

}  // namespace model
