// The class's answers drawn for the projector: a bar per choice, a heat map
// over the asked grid, or a histogram of the numbers with the true value
// marked. Drawn from a ClassTally the feature counted; nothing is counted here.
#pragma once

#include <imgui.h>

#include <string>

#include "model/classroom/class_tally.hpp"

namespace viz {

// Fills the current window's remaining width with the chart, `height` tall.
void draw_class_tally(const model::ClassTally& tally, const model::ClassQuestion& question, float height);

// The height the chart would like (the window is sized to it, within the canvas).
float class_tally_height(const model::ClassTally& tally, const model::ClassQuestion& question);

// "12 answers", then "12 answers, 7 right (58%)" once revealed, and a
// number question's answer on a line of its own.
std::string tally_headline(const model::ClassTally& tally);

}  // namespace viz
