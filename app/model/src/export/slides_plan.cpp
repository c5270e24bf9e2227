// The slides of a lesson (see slides_plan.hpp).
#include "model/export/slides_plan.hpp"

#include <cstdio>

namespace model {

std::vector<Slide> plan_slides(const attn::io::LessonFile& lesson) {
  std::vector<Slide> out;
  // Two digits up to 99 steps, more as needed, so the files sort in order.
  const int digits = lesson.steps.size() > 99 ? static_cast<int>(std::to_string(lesson.steps.size()).size()) : 2;
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "slide-%0*zu", digits, i + 1);
    out.push_back({static_cast<int>(i), false, std::string(name) + ".png"});
    if (lesson.steps[i].question) out.push_back({static_cast<int>(i), true, std::string(name) + "-answer.png"});
  }
  return out;
}

std::string slides_pdf_file(const attn::io::LessonFile& lesson) {
  // The id is the lesson file's name without ".json", already a file name.
  return (lesson.id.empty() ? std::string("lesson") : lesson.id) + ".pdf";
}

std::string slide_size_problem(int width, int height) {
  const bool small = width < kMinSlideWidth || height < kMinSlideHeight;
  const bool large = width > kMaxSlideWidth || height > kMaxSlideHeight;
  if (!small && !large) return "";
  return std::to_string(width) + "x" + std::to_string(height) + " is too " + (small ? "small" : "large") + ": slides are " +
         std::to_string(kMinSlideWidth) + " to " + std::to_string(kMaxSlideWidth) + " pixels wide and " +
         std::to_string(kMinSlideHeight) + " to " + std::to_string(kMaxSlideHeight) + " high";
}

}  // namespace model
