// The colours of everything that is not a colourmap (canvas, grid frames,
// text, arrows, highlights, panels), one palette per theme, so the painter
// and panels name a role ("muted", "step") and never a number. Light is the
// original look; dark for dim rooms; high contrast (black on white, no pale
// greys) for washed-out projectors.
#pragma once

#include "model/colour/colourmap.hpp"
#include "model/colour/colour_options.hpp"

namespace model {

struct ThemePalette {
  // The canvas and its grids.
  Rgba canvas, grid_frame, title, subtitle, label, legend, caption;
  Rgba arrow;
  Rgba empty_cell;               // a cell not computed yet (during the animation)
  Rgba masked_fill, hatch;       // the masked look: fill plus diagonal lines
  Rgba hidden_cell, hidden_lines, hidden_mark;  // a grid a lesson question hides
  Rgba accent_q, accent_k, accent_v;            // queries, keys, values (as in the articles)
  Rgba step, step_fill;          // what the animation is doing now
  Rgba source, source_fill;      // where the inspected cell came from
  Rgba cell_outline;             // the inspected or hovered cell
  Rgba lesson, lesson_fill;      // cells a lesson step points at
  // Panels and text on them.
  Rgba panel, panel_border;
  Rgba text, muted, heading, emphasis, math;
  Rgba right, error, warning;
  Rgba error_panel, error_border;
  Rgba offending_cell;           // an editor cell behind a failed computation
  // Presenting.
  Rgba spotlight_dim;            // laid over all but the cells in the spotlight
  Rgba laser;                    // the laser pointer's dot (its glow is the same, fainter)
};

const ThemePalette& palette(Theme theme);

}  // namespace model
