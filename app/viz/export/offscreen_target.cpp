// Framebuffer + RGBA8 renderbuffer for exports, and the image helpers.
#include "export/offscreen_target.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace viz {

RgbaImage RgbaImage::crop(int x0, int y0, int x1, int y1) const {
  x0 = std::clamp(x0, 0, width), x1 = std::clamp(x1, x0, width);
  y0 = std::clamp(y0, 0, height), y1 = std::clamp(y1, y0, height);
  RgbaImage out;
  out.width = x1 - x0;
  out.height = y1 - y0;
  out.pixels.resize(static_cast<size_t>(out.width) * static_cast<size_t>(out.height) * 4);
  for (int y = y0; y < y1; ++y)
    std::copy_n(pixels.begin() + (static_cast<std::ptrdiff_t>(y) * width + x0) * 4, out.width * 4,
                out.pixels.begin() + static_cast<std::ptrdiff_t>(y - y0) * out.width * 4);
  return out;
}

RgbaImage matte(const RgbaImage& on_black, const RgbaImage& on_white) {
  RgbaImage out = on_black;
  for (size_t i = 0; i + 3 < out.pixels.size(); i += 4) {
    int shown = 0;  // how much background shows through, the most of any channel
    for (size_t c = 0; c < 3; ++c) shown = std::max(shown, on_white.pixels[i + c] - on_black.pixels[i + c]);
    const int alpha = 255 - std::clamp(shown, 0, 255);
    for (size_t c = 0; c < 3; ++c)
      out.pixels[i + c] = alpha == 0 ? 0 : static_cast<std::uint8_t>(std::min(255, (on_black.pixels[i + c] * 255 + alpha / 2) / alpha));
    out.pixels[i + 3] = static_cast<std::uint8_t>(alpha);
  }
  return out;
}

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width <= 0 || height <= 0 || width > max_size || height > max_size)
    throw std::runtime_error("cannot render " + std::to_string(width) + "x" + std::to_string(height) +
                             " pixels offscreen (this GL allows up to " + std::to_string(max_size) + "); try a smaller --scale or window");
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    glDeleteRenderbuffers(1, &colour_);
    glDeleteFramebuffers(1, &fbo_);
    throw std::runtime_error("the offscreen framebuffer is incomplete (GL status " + std::to_string(status) + ")");
  }
}

OffscreenTarget::~OffscreenTarget() {
  glDeleteRenderbuffers(1, &colour_);
  glDeleteFramebuffers(1, &fbo_);
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }
void OffscreenTarget::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

RgbaImage OffscreenTarget::read() const {
  RgbaImage img;
  img.width = width_;
  img.height = height_;
  std::vector<std::uint8_t> raw(static_cast<size_t>(width_) * static_cast<size_t>(height_) * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  img.pixels.resize(raw.size());
  const size_t stride = static_cast<size_t>(width_) * 4;
  for (int y = 0; y < height_; ++y)  // GL's first row is the bottom one
    std::copy_n(raw.data() + static_cast<size_t>(height_ - 1 - y) * stride, stride, img.pixels.data() + static_cast<size_t>(y) * stride);
  return img;
}

}  // namespace viz
