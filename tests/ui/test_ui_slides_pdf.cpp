// --export-slides writes a PDF beside the PNGs. Poppler (poppler-utils, a
// reader independent of cairo's PDF writer) checks it: one page per PNG, each
// 0.75 pt a pixel, and each page rasterised at 96 dpi equal to its PNG, in
// the lesson's order (an answer after its question). The pages are
// rasterised by pdftocairo (poppler's parser, cairo's rasteriser), not
// pdftoppm: poppler's own Splash rasteriser resamples even a 1:1 image (by
// up to 236 of 255 at cell edges and in text, on every page), so it could
// not tell a right page from a slightly wrong one. And the ways it can fail: a folder that cannot
// be made, a PDF that cannot be written, a size out of range: exit code 2
// and one line saying what and why.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "attn/io/lesson_file.hpp"
#include "ui_support.hpp"

using namespace ui_test;
namespace fs = std::filesystem;

namespace {

const std::string kLessons = std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/";

// The slides' PNGs in the lesson's order: each step, then its answer.
std::vector<std::string> slide_pngs(const attn::io::LessonFile& lesson, const std::string& dir) {
  std::vector<std::string> out;
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "slide-%02zu", i + 1);
    out.push_back(dir + "/" + name + ".png");
    if (lesson.steps[i].question) out.push_back(dir + "/" + name + "-answer.png");
  }
  return out;
}

std::vector<std::string> files_in(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Lines of the output that are not empty.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// A rasterised page may differ from its PNG by this much in any channel:
// the page is the PNG's pixels at 1:1, so only rounding could differ (0 measured).
constexpr int kPageTolerance = 2;

}  // namespace

TEST_SUITE("slides_pdf") {
  TEST_CASE("ui: --export-slides at 1024x768 writes a PDF: a 768x576 pt page per PNG, in order, each rasterised at 96 dpi equal to its PNG") {
    const std::string file = kLessons + "07_attention_in_modern_models.json";
    const attn::io::LessonFile lesson = attn::io::load_lesson(file);
    const std::string dir = temp_path("slides_pdf");
    fs::remove_all(dir);
    std::string out;
    REQUIRE_MESSAGE(run(attnviz("--test --lesson \"" + file + "\" --export-slides \"" + dir + "\" --size 1024x768"), &out) == 0, out);
    const std::string pdf = dir + "/07_attention_in_modern_models.pdf";
    CHECK_MESSAGE(out.find("attnviz: wrote " + pdf) != std::string::npos, out);
    const std::vector<std::string> pngs = slide_pngs(lesson, dir);
    REQUIRE(files_in(dir, ".png").size() == pngs.size());
    CHECK(files_in(dir, ".pdf") == std::vector<std::string>{pdf});  // and no temporary file left

    // pdfinfo: the page count, and every page's size in points.
    std::string info;
    REQUIRE_MESSAGE(run(std::string(PDFINFO) + " -f 1 -l 9999 \"" + pdf + "\"", &info) == 0, info);
    int pages = -1, sized = 0;
    for (const std::string& line : lines_of(info)) {
      int page = 0;
      double w = 0, h = 0;
      if (std::sscanf(line.c_str(), "Pages: %d", &page) == 1) pages = page;
      if (std::sscanf(line.c_str(), "Page %d size: %lf x %lf pts", &page, &w, &h) == 3) {
        ++sized;
        CHECK_MESSAGE(w == doctest::Approx(768).epsilon(1e-6), line);
        CHECK_MESSAGE(h == doctest::Approx(576).epsilon(1e-6), line);
      }
    }
    CHECK(pages == static_cast<int>(pngs.size()));
    CHECK(sized == static_cast<int>(pngs.size()));

    // Rasterised at 96 dpi: page k is the k-th slide, pixel for pixel.
    const std::string raster = temp_path("slides_pdf_pages");
    fs::remove_all(raster);
    fs::create_directories(raster);
    REQUIRE(run(std::string(PDFTOCAIRO) + " -r 96 -png \"" + pdf + "\" \"" + raster + "/page\"") == 0);
    const std::vector<std::string> rendered = files_in(raster, ".png");  // page-01.png ... in page order
    REQUIRE(rendered.size() == pngs.size());
    for (size_t k = 0; k < pngs.size(); ++k) {
      CAPTURE(pngs[k]);
      const Image page = load_png(rendered[k]), png = load_png(pngs[k]);
      REQUIRE(png.ok());
      REQUIRE(page.width == png.width);
      REQUIRE(page.height == png.height);
      int worst = -1, wx = 0, wy = 0;
      for (int y = 0; y < png.height; ++y)
        for (int x = 0; x < png.width; ++x)
          if (const int d = distance(page.at(x, y), png.at(x, y)); d > worst) worst = d, wx = x, wy = y;
      const viz::Rgba a = page.at(wx, wy), b = png.at(wx, wy);
      CHECK_MESSAGE(worst <= kPageTolerance, "page " << k + 1 << " differs from " << pngs[k] << " by " << worst << " at (" << wx << ", "
                                                    << wy << "): page " << int(a.r) << "," << int(a.g) << "," << int(a.b) << " png "
                                                    << int(b.r) << "," << int(b.g) << "," << int(b.b));
    }
  }

  TEST_CASE("ui: slides that cannot be written exit 2 with one line: a folder that cannot be made, a PDF that cannot be written, a size out of range") {
    const std::string lesson_file = kLessons + "03_shapes_masks_hull.json";
    std::string out;
    // The folder would be inside a file.
    const std::string file = temp_path("slides_not_a_folder");
    fs::remove_all(file);
    std::ofstream(file) << "x";
    CHECK(run(attnviz("--test --lesson \"" + lesson_file + "\" --export-slides \"" + file + "/slides\" --size 1024x768"), &out) == 2);
    CHECK_MESSAGE(lines_of(out) == std::vector<std::string>{"attnviz: --export-slides: cannot make the folder " + file +
                                                             "/slides: Not a directory"},
                  out);
    // A folder this user may not write to (root may write anywhere).
    if (::geteuid() != 0) {
      const std::string locked = temp_path("slides_locked");
      fs::remove_all(locked);
      fs::create_directories(locked);
      fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
      CHECK(run(attnviz("--test --lesson \"" + lesson_file + "\" --export-slides \"" + locked + "\" --size 1024x768"), &out) == 2);
      CHECK_MESSAGE(lines_of(out) == std::vector<std::string>{"attnviz: --export-slides: cannot write " + locked +
                                                               "/slide-01.png: Permission denied"},
                    out);
      fs::permissions(locked, fs::perms::owner_all);
    }
    // The PDF's name is taken by a folder: every PNG is written, the PDF
    // is refused with its path and why, and no temporary file is left.
    const std::string dir = temp_path("slides_pdf_taken");
    fs::remove_all(dir);
    fs::create_directories(dir + "/03_shapes_masks_hull.pdf");
    CHECK(run(attnviz("--test --lesson \"" + lesson_file + "\" --export-slides \"" + dir + "\" --size 1024x768"), &out) == 2);
    CHECK_MESSAGE(lines_of(out) == std::vector<std::string>{"attnviz: --export-slides: cannot write " + dir +
                                                             "/03_shapes_masks_hull.pdf: it is not a regular file"},
                  out);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() != ".png") left.push_back(e.path().filename().string());
    CHECK(left == std::vector<std::string>{"03_shapes_masks_hull.pdf"});
    // Sizes a slide cannot have, refused before any window opens.
    for (const char* size : {"200x150", "8000x4320"}) {
      CHECK(run(attnviz("--test --lesson \"" + lesson_file + "\" --export-slides \"" + dir + "\" --size " + size), &out) == 2);
      CHECK_MESSAGE(lines_of(out) == std::vector<std::string>{std::string("attnviz: --size: ") + size + " is too " +
                                                               (size[0] == '2' ? "small" : "large") +
                                                               ": slides are 320 to 7680 pixels wide and 240 to 4320 high"},
                    out);
    }
  }
}
