// PNG files as written by write_png and read back by an independent decoder
// (stb_image): every pixel of RGB and RGBA pictures, rows given top-down or
// bottom-up (as OpenGL reads them), padded rows, and files that cannot be
// written or pictures that make no sense, each refused with a message
// naming the file.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <stb_image.h>

#include "model/export/png_file.hpp"
#include "test_files.hpp"

namespace {

// A picture whose every byte differs from its neighbours', so a swapped
// channel, row or column shows.
std::vector<unsigned char> pattern_pixels(int width, int height, int channels, size_t stride) {
  std::vector<unsigned char> px(stride * static_cast<size_t>(height), 0xEE);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c)
        px[static_cast<size_t>(y) * stride + static_cast<size_t>(x * channels + c)] =
            static_cast<unsigned char>((x * 7 + y * 31 + c * 85) & 0xFF);
  return px;
}

}  // namespace

TEST_CASE("png: RGB and RGBA pictures read back pixel for pixel, top-down and bottom-up, with padded rows") {
  const std::filesystem::path dir = test_files::fresh_folder("png_file");
  for (const int channels : {3, 4})
    for (const model::RowOrder order : {model::RowOrder::TopDown, model::RowOrder::BottomUp})
      for (const size_t padding : {size_t{0}, size_t{5}}) {
        const int w = 37, h = 23;
        const size_t stride = static_cast<size_t>(w * channels) + padding;
        CAPTURE(channels);
        CAPTURE(order == model::RowOrder::BottomUp);
        CAPTURE(padding);
        const std::vector<unsigned char> px = pattern_pixels(w, h, channels, stride);
        const std::string path = (dir / "picture.png").string();
        REQUIRE(model::write_png(path, {px.data(), w, h, channels, stride, order}) == "");
        int rw = 0, rh = 0, rc = 0;
        unsigned char* back = stbi_load(path.c_str(), &rw, &rh, &rc, channels);
        REQUIRE(back);
        CHECK(rw == w);
        CHECK(rh == h);
        CHECK(rc == channels);
        int wrong = 0, wx = -1, wy = -1;
        for (int y = 0; y < h && rw == w && rh == h; ++y) {
          const int source_row = order == model::RowOrder::TopDown ? y : h - 1 - y;
          for (int x = 0; x < w; ++x)
            for (int c = 0; c < channels; ++c)
              if (back[(y * w + x) * channels + c] != px[static_cast<size_t>(source_row) * stride + static_cast<size_t>(x * channels + c)]) {
                if (!wrong) wx = x, wy = y;
                ++wrong;
              }
        }
        stbi_image_free(back);
        CHECK_MESSAGE(wrong == 0, wrong << " bytes differ, the first at pixel (" << wx << ", " << wy << ")");
      }
}

TEST_CASE("png: a file that cannot be written, and a picture that makes no sense, are refused by name") {
  const std::filesystem::path dir = test_files::fresh_folder("png_file_bad");
  const std::vector<unsigned char> px = pattern_pixels(4, 4, 4, 16);
  const std::string missing = (dir / "no_such_folder" / "x.png").string();
  const std::string message = model::write_png(missing, {px.data(), 4, 4, 4, 16});
  CHECK(message.find("cannot write " + missing) == 0);
  CHECK(message.find("No such file") != std::string::npos);
  const std::string path = (dir / "x.png").string();
  CHECK(model::write_png(path, {px.data(), 4, 4, 2, 16}).find("2 bytes a pixel") != std::string::npos);
  CHECK(model::write_png(path, {px.data(), 0, 4, 4, 16}).find("the picture is empty (0x4)") != std::string::npos);
  CHECK(model::write_png(path, {nullptr, 4, 4, 4, 16}).find("the picture is empty") != std::string::npos);
  CHECK(model::write_png(path, {px.data(), 4, 4, 4, 12}).find("rows of 12 bytes are shorter than 4 pixels") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(path));
  // A full disk: /dev/full takes the open and refuses every write.
  if (std::filesystem::exists("/dev/full")) {
    const std::string full = model::write_png("/dev/full", {px.data(), 4, 4, 4, 16});
    CHECK(full.find("cannot write /dev/full") == 0);
  }
}
