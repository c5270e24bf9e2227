// The slides' plan and PDF without a window: an answer slide follows its
// question, the PDF is named after the lesson, typed sizes are checked, the
// RGBA -> cairo ARGB32 conversion premultiplies, and a PDF that cannot be
// written says why and leaves nothing behind. (The PDF's pages are read
// back by poppler in the UI test ui_slides_pdf.)
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "attn/io/lesson_file.hpp"
#include "model/export/slides_pdf.hpp"
#include "model/export/slides_plan.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;

TEST_CASE("slides: an answer slide follows each question, and the PDF is named after the lesson") {
  const attn::io::LessonFile lesson = attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/07_attention_in_modern_models.json");
  const std::vector<model::Slide> plan = model::plan_slides(lesson);
  size_t questions = 0;
  for (const auto& st : lesson.steps) questions += st.question ? 1 : 0;
  REQUIRE(questions > 0);
  CHECK(plan.size() == lesson.steps.size() + questions);
  for (size_t i = 0; i < plan.size(); ++i) {
    CAPTURE(plan[i].file);
    if (plan[i].answer) {
      REQUIRE(i > 0);
      CHECK(plan[i - 1].step == plan[i].step);
      CHECK_FALSE(plan[i - 1].answer);
    }
  }
  CHECK(model::slides_pdf_file(lesson) == "07_attention_in_modern_models.pdf");
}

TEST_CASE("slides: typed sizes from 320x240 to 7680x4320, the rest named") {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1024, 768}, {1280, 720}, {1920, 1080}, {320, 240}, {7680, 4320}})
    CHECK_MESSAGE(model::slide_size_problem(w, h) == "", w << "x" << h);
  CHECK(model::slide_size_problem(319, 768) == "319x768 is too small: slides are 320 to 7680 pixels wide and 240 to 4320 high");
  CHECK(model::slide_size_problem(1024, 239).rfind("1024x239 is too small", 0) == 0);
  CHECK(model::slide_size_problem(7681, 1080).rfind("7681x1080 is too large", 0) == 0);
  CHECK(model::slide_size_problem(1920, 4321).rfind("1920x4321 is too large", 0) == 0);
}

TEST_CASE("slides PDF: RGBA becomes cairo's premultiplied ARGB32, rounded to nearest") {
  CHECK(model::cairo_argb32(10, 20, 30, 255) == 0xff0a141eu);   // opaque: colour unchanged
  CHECK(model::cairo_argb32(255, 128, 0, 0) == 0x00000000u);    // transparent: no colour
  CHECK(model::cairo_argb32(255, 0, 0, 128) == 0x80800000u);    // 255 * 128 / 255
  CHECK(model::cairo_argb32(200, 100, 51, 128) == 0x8064321au); // 100.39, 50.20, 25.60 rounded
  CHECK(model::kPointsPerPixel * 1024 == 768);
}

TEST_CASE("slides PDF: written whole, or a reason and no file left") {
  const fs::path dir = test_files::fresh_folder("slides_pdf");
  std::vector<std::uint8_t> px(40 * 30 * 4, 255);
  model::SlidesPdf pdf;
  CHECK(pdf.add_page(px.data(), 40, 30) == "");
  CHECK(pdf.add_page(px.data(), 40, 30) == "");
  CHECK(pdf.pages() == 2);
  const std::string path = (dir / "deck.pdf").string();
  REQUIRE(pdf.write(path) == "");
  const std::string text = test_files::read(path);
  CHECK(text.rfind("%PDF-", 0) == 0);
  CHECK(text.find("%%EOF") != std::string::npos);

  // A folder where the PDF should go: refused, with the path and why, and
  // no temporary file beside it.
  fs::create_directory(dir / "taken.pdf");
  model::SlidesPdf blocked;
  REQUIRE(blocked.add_page(px.data(), 40, 30) == "");
  const std::string error = blocked.write((dir / "taken.pdf").string());
  CHECK(error.find("cannot write " + (dir / "taken.pdf").string()) == 0);
  // A folder that is not there.
  model::SlidesPdf nowhere;
  REQUIRE(nowhere.add_page(px.data(), 40, 30) == "");
  CHECK(nowhere.write((dir / "missing" / "deck.pdf").string()).find("cannot write") == 0);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  CHECK(left == std::vector<std::string>{"deck.pdf", "taken.pdf"});

  model::SlidesPdf empty;
  CHECK(empty.write((dir / "empty.pdf").string()) == "the PDF could not be made (no pages)");
  CHECK(empty.add_page(nullptr, 0, 0) != "");
}
