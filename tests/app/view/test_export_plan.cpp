// Export planning and GIF palettes: the format follows the extension, an
// animation has one frame per 1/fps seconds including both ends, bad
// requests are named, and the median-cut palette keeps few colours exactly
// and a smooth colourmap ramp within a small error.
#include <doctest/doctest.h>

#include <cmath>

#include "model/colour/colour_quantizer.hpp"
#include "model/export/export_plan.hpp"

TEST_CASE("export format follows the extension, case-insensitive") {
  CHECK(model::export_format_of("a/b.PNG") == model::ExportFormat::Png);
  CHECK(model::export_format_of("x.svg") == model::ExportFormat::Svg);
  CHECK(model::export_format_of("x.gif") == model::ExportFormat::Gif);
  CHECK(model::export_format_of("x.mp4") == model::ExportFormat::Mp4);
  CHECK(model::export_format_of("x.npy") == model::ExportFormat::Npy);
  CHECK_FALSE(model::export_format_of("x.jpeg"));
  CHECK_FALSE(model::export_format_of("dir.gif/file"));
  CHECK_FALSE(model::export_format_of("noext"));
}

TEST_CASE("frame times: both ends, 1/fps apart, clamped to the timeline") {
  model::ExportRequest r;
  r.fps = 10;
  r.from = 1;
  r.to = 2;
  const std::vector<double> t = model::frame_times(r, 5);
  REQUIRE(t.size() == 11);
  CHECK(t.front() == 1);
  CHECK(t.back() == doctest::Approx(2));
  for (size_t k = 1; k < t.size(); ++k) CHECK(t[k] - t[k - 1] == doctest::Approx(0.1));
  r.to = 99;  // past the end: up to the end
  CHECK(model::frame_times(r, 1.5).size() == 6);
  r.from = 3;
  r.to = -1;  // the end
  CHECK(model::frame_times(r, 3).size() == 1);
}

TEST_CASE("export requests name what is wrong") {
  model::ExportRequest r;
  CHECK(model::request_problem(r) == "");
  r.scale = 3;
  CHECK(model::request_problem(r) == "--scale: 3 is not offered (use 1, 2 or 4)");
  r.scale = 2;
  r.from = 5;
  r.to = 2;
  CHECK(model::request_problem(r) == "--from 5 is after --to 2");
  r = {};
  r.format = model::ExportFormat::Gif;
  r.transparent = true;
  CHECK(model::request_problem(r).find("GIF exports have a background") != std::string::npos);
}

TEST_CASE("median cut: few colours kept exactly, extras first, a ramp within a small error") {
  std::vector<std::uint8_t> px;
  for (int i = 0; i < 100; ++i) px.insert(px.end(), {static_cast<std::uint8_t>(i % 3 * 100), 20, 30, 255});
  const std::vector<model::Rgba> few = model::median_cut_palette(px.data(), 100, {{1, 2, 3, 255}});
  CHECK(few.size() == 4);
  CHECK(few[0] == model::Rgba{1, 2, 3, 255});

  // A 4096-colour ramp through the viridis map: more colours than a GIF holds.
  px.clear();
  const model::Colourmap& map = model::colourmap(model::ColourmapId::Viridis);
  for (int i = 0; i < 4096; ++i) {
    const model::Rgba c = model::sample(map, static_cast<float>(i) / 4095);
    px.insert(px.end(), {c.r, c.g, c.b, 255});
    px.insert(px.end(), {static_cast<std::uint8_t>(i & 0xff), static_cast<std::uint8_t>(i >> 4), 128, 255});
  }
  const std::vector<model::Rgba> pal = model::median_cut_palette(px.data(), px.size() / 4, {});
  CHECK(pal.size() == 256);
  model::PaletteMapper mapper(pal);
  const std::vector<std::uint8_t> idx = mapper.map(px.data(), px.size() / 4);
  double worst = 0;
  for (size_t i = 0; i < idx.size(); i += 2) {  // the colourmap pixels
    const model::Rgba& q = pal[idx[i]];
    worst = std::max({worst, std::abs(q.r - double(px[4 * i])), std::abs(q.g - double(px[4 * i + 1])), std::abs(q.b - double(px[4 * i + 2]))});
  }
  INFO("worst channel error on the viridis ramp: " << worst);
  CHECK(worst <= 12);
  CHECK(mapper.rgb_table().size() == 3 * pal.size());
}

TEST_CASE("picture sizes: WxH read strictly, checked against the limits, text grows with the height") {
  const auto p = model::parse_picture_size("1920x1080");
  REQUIRE(p);
  CHECK(p->width == 1920);
  CHECK(p->height == 1080);
  CHECK(model::parse_picture_size("640X480"));
  CHECK(model::parse_picture_size("800\u00d7600"));
  for (const char* bad : {"", "x", "1920", "1920x", "x1080", "19a0x1080", "-5x10", "1920x1080x3", "99999999x2"})
    CHECK_MESSAGE(!model::parse_picture_size(bad), bad);
  model::ExportRequest r;
  r.path = "a.png";
  r.width = 1280;
  r.height = 720;
  CHECK(model::request_problem(r).empty());
  r.height = 20;
  CHECK(model::request_problem(r) == "--export-size: 1280x20 is too small (64 to 8192 pixels a side)");
  r.height = 9000;
  CHECK(model::request_problem(r).find("too large") != std::string::npos);
  r.height = 720;
  r.scale = 2;
  CHECK(model::request_problem(r).find("give one") != std::string::npos);
  r.scale = 1;
  r.format = model::ExportFormat::Npy;
  CHECK(model::request_problem(r).find("holds numbers, not a picture") != std::string::npos);
  for (const model::PictureSize& s : model::picture_sizes()) {
    r.format = model::ExportFormat::Gif;
    r.width = s.width, r.height = s.height;
    CHECK_MESSAGE(model::request_problem(r).empty(), s.name);
  }
  CHECK(model::picture_text_scale(720) == 1);
  CHECK(model::picture_text_scale(1080) == doctest::Approx(1.5));
  CHECK(model::picture_text_scale(100) == 1);
  CHECK(model::picture_text_scale(8000) == 4);
}
