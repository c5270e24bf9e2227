// The inspector's "Why this score" section: the inspected score (or the
// score behind an inspected weight) as its parts, largest dimensions first,
// and with RoPE each rotary pair's term with what the content gives and what
// the distance between query and key turns it by.
#pragma once

#include "attn/why/score_split.hpp"
#include "gl/theme_style.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

void draw_score_why(const attn::ScoreSplit& split, const ThemePalette& pal, WidgetProbe* probe);

}  // namespace viz
