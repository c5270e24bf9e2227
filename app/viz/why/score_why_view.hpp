// The inspector's "Why this score" section: the inspected score (or the
// score behind an inspected weight) as its parts, largest dimensions first,
// and with RoPE each rotary pair's term with what the content gives and what
// the distance between query and key turns it by.
#pragma once

#include "attn/why/score_split.hpp"
#include "model/explore/rope_curves.hpp"
#include "gl/theme_style.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// `slide`: as a slide shows it, in slide_why_lines() lines: one split (the
// rotary pairs with RoPE, else the dimensions), its 4 largest parts, and no
// explanation of the formula (the lesson's text gives it).
void draw_score_why(const attn::ScoreSplit& split, const ThemePalette& pal, WidgetProbe* probe, bool slide = false);
// Under the rotary pairs: each pair's term as the distance grows, a small
// line per pair on one scale, a dot at the score's own distance.
void draw_rope_curves(const model::RopeCurves& curves, const ThemePalette& pal, WidgetProbe* probe);
int slide_why_lines(const attn::ScoreSplit* split);  // heading, caption, the bars, and the sum or the count left out

}  // namespace viz
