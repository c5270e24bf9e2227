// Exports render the app's frame into an offscreen framebuffer of any size
// (2x or 4x the window for slides) instead of the window, then read it back
// as an RGBA image with rows top to bottom.
#pragma once

#include <cstdint>
#include <vector>

#include "gl/gl.hpp"

namespace viz {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4, rows top to bottom
  // The part [x0, x1) x [y0, y1), clamped to the image.
  RgbaImage crop(int x0, int y0, int x1, int y1) const;
};

// Recovers a transparent picture from the same frame drawn on black and on
// white: where they differ the background showed through (alpha = 1 −
// (white − black)), and the colour is what was drawn over black, un-premultiplied.
RgbaImage matte(const RgbaImage& on_black, const RgbaImage& on_white);

class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height);  // throws std::runtime_error when GL refuses
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  void bind() const;     // draws go here until unbind()
  static void unbind();  // back to the window
  RgbaImage read() const;

 private:
  int width_, height_;
  GLuint fbo_ = 0, colour_ = 0;
};

}  // namespace viz
