// The RoPE dial: each pair of a rotated query's or key's dimensions as an
// arrow on a circle, before (faint) and after its turn by position × θ_i,
// with the angle swept between them. Small and wrapped to the panel's width.
#pragma once

#include "model/explore/rope_dial.hpp"
#include "model/settings/theme.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

void draw_rope_dial(const model::RopeDial& dial, const model::ThemePalette& palette, WidgetProbe* probe);

}  // namespace viz
