// A lesson as slides: one picture a step, and for a step with a question a
// second picture with the answer revealed, so a teacher can ask, then show.
// The plan is pure: which step, revealed or not, and the file name; the app
// draws each slide (shell/app_slides.cpp).
#pragma once

#include <string>
#include <vector>

#include "attn/io/lesson_file.hpp"

namespace model {

struct Slide {
  int step = 0;         // the lesson step, from 0
  bool answer = false;  // the step's question revealed
  std::string file;     // "slide-03.png", "slide-03-answer.png"
};

std::vector<Slide> plan_slides(const attn::io::LessonFile& lesson);

// Slides come in the export sizes (export_plan.hpp: picture_sizes()).

}  // namespace model
