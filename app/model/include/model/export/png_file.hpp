// Pictures as PNG files: screenshots, slides and exported stills all go
// through write_png. libpng (Debian libpng-dev) encodes them with zlib at a
// fast setting: a 1920x1080 slide took 0.39 s in stb_image_write and takes
// about 0.04 s here, in a smaller file, and the UI tests write hundreds.
// In a library of its own (attnviz_png) so that attnviz_model stays plain C++.
#pragma once

#include <cstddef>
#include <string>

namespace model {

// Where the first row of the pixels lies: OpenGL reads the bottom row first.
enum class RowOrder { TopDown, BottomUp };

// 8-bit pixels, `channels` bytes each (3 = RGB, 4 = straight-alpha RGBA),
// rows `stride` bytes apart.
struct PngPixels {
  const unsigned char* data = nullptr;
  int width = 0, height = 0, channels = 4;
  std::size_t stride = 0;
  RowOrder order = RowOrder::TopDown;
};

// Writes the pixels to `path` as a PNG. "" or what went wrong, naming the file.
std::string write_png(const std::string& path, const PngPixels& pixels);

}  // namespace model
