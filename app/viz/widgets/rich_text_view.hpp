// Draws lesson text (viz::RichSpan) word-wrapped at the cursor: bold and
// emphasis in the bold face, math in a serif face and colour, with
// subscripts and superscripts smaller and lowered or raised.
#pragma once

#include <string>

#include "gl/font_set.hpp"
#include "model_names.hpp"
#include "model/lessons/rich_text.hpp"
#include "model/settings/theme.hpp"

namespace viz {

// Draws `text` (markup parsed here) wrapped to `width` pixels, in the
// palette's text, emphasis and math colours, and advances the cursor past it.
void draw_rich_text(const std::string& text, const FontSet& fonts, float width, const ThemePalette& palette);

}  // namespace viz
