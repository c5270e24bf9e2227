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

// The deck as one PDF beside the PNGs, its pages in the plan's order:
// "<lesson id>.pdf" ("07_attention_in_modern_models.pdf").
std::string slides_pdf_file(const attn::io::LessonFile& lesson);

// Slides come in the export sizes (export_plan.hpp: picture_sizes()) or a
// size typed in, from a small projector's to 8K's: narrower than 320 or
// lower than 240 nothing on a slide can be read, and past 7680x4320 one
// slide is over 130 MB of pixels.
constexpr int kMinSlideWidth = 320, kMaxSlideWidth = 7680, kMinSlideHeight = 240, kMaxSlideHeight = 4320;
// "" or what is wrong: "100x900 is too small: slides are 320 to 7680 pixels wide
// and 240 to 4320 high".
std::string slide_size_problem(int width, int height);

}  // namespace model
