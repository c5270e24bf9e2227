// A lesson's slides as one PDF, a page per slide picture, so a teacher can
// print or project the deck without assembling PNGs. It needs pixels only,
// no GL, so it lives in the model layer, in a library of its own
// (attnviz_slides_pdf) so that only what writes PDFs links cairo. The PDF
// itself is cairo's (Debian libcairo2-dev): we do not write PDF by hand.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace model {

// One pixel of straight-alpha RGBA as a word of cairo's ARGB32 (alpha in the
// top byte, colour premultiplied by alpha, rounded to nearest).
std::uint32_t cairo_argb32(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a);

// Page size for a picture of `pixels`: 0.75 pt a pixel, so it prints at 96 dpi.
constexpr double kPointsPerPixel = 72.0 / 96.0;

class SlidesPdf {
 public:
  SlidesPdf();
  ~SlidesPdf();
  SlidesPdf(const SlidesPdf&) = delete;
  SlidesPdf& operator=(const SlidesPdf&) = delete;

  // Adds a page the picture's size (rows top to bottom, width * height * 4
  // bytes). "" or what went wrong; after an error the document is unusable.
  std::string add_page(const std::uint8_t* rgba, int width, int height);
  int pages() const;
  // Ends the document and writes it to `path` atomically (a temporary file
  // beside it, then a rename), so a failed write leaves no half PDF. ""
  // or the reason, e.g. "cannot write DIR/x.pdf: No space left on device".
  std::string write(const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace model
