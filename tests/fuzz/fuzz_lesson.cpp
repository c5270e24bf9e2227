// libFuzzer target for the lesson format: any input is either refused with
// a LessonError / FormatError listing its problems, or loads into a lesson
// whose every step has a scene that computes. Scenes are inline or named
// relative to the shipped assets (so seeds can be the real lessons).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "attn/io/lesson_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const attn::io::LessonFile lesson = attn::io::parse_lesson(text, ATTNVIZ_ASSETS_DIR "/lessons");
    for (const attn::io::LessonStep& step : lesson.steps) {
      if (step.scene.scenario.x.size() == 0) {
        std::fprintf(stderr, "fuzz_lesson: a step loaded without a scene\n");
        std::abort();
      }
    }
  } catch (const attn::io::LessonError& e) {
    if (e.problems.empty()) {
      std::fprintf(stderr, "fuzz_lesson: a LessonError without problems\n");
      std::abort();
    }
  } catch (const attn::io::FormatError&) {
  }
  return 0;
}
