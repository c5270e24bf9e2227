// Export planning and GIF palettes: the format follows the extension, an
// animation has one frame per 1/fps seconds including both ends, bad
// requests are named, and the median-cut palette keeps few colours exactly
// and a smooth colormap ramp within a small error.
#include <doctest/doctest.h>

#include <cmath>

#include "viz/colour_quantizer.hpp"
#include "viz/export_plan.hpp"

TEST_CASE("export format follows the extension, case-insensitive") {
  CHECK(viz::export_format_of("a/b.PNG") == viz::ExportFormat::Png);
  CHECK(viz::export_format_of("x.svg") == viz::ExportFormat::Svg);
  CHECK(viz::export_format_of("x.gif") == viz::ExportFormat::Gif);
  CHECK(viz::export_format_of("x.mp4") == viz::ExportFormat::Mp4);
  CHECK(viz::export_format_of("x.npy") == viz::ExportFormat::Npy);
  CHECK_FALSE(viz::export_format_of("x.jpeg"));
  CHECK_FALSE(viz::export_format_of("dir.gif/file"));
  CHECK_FALSE(viz::export_format_of("noext"));
}

TEST_CASE("frame times: both ends, 1/fps apart, clamped to the timeline") {
  viz::ExportRequest r;
  r.fps = 10;
  r.from = 1;
  r.to = 2;
  const std::vector<double> t = viz::frame_times(r, 5);
  REQUIRE(t.size() == 11);
  CHECK(t.front() == 1);
  CHECK(t.back() == doctest::Approx(2));
  for (size_t k = 1; k < t.size(); ++k) CHECK(t[k] - t[k - 1] == doctest::Approx(0.1));
  r.to = 99;  // past the end: up to the end
  CHECK(viz::frame_times(r, 1.5).size() == 6);
  r.from = 3;
  r.to = -1;  // the end
  CHECK(viz::frame_times(r, 3).size() == 1);
}

TEST_CASE("export requests name what is wrong") {
  viz::ExportRequest r;
  CHECK(viz::request_problem(r) == "");
  r.scale = 3;
  CHECK(viz::request_problem(r) == "--scale: 3 is not offered (use 1, 2 or 4)");
  r.scale = 2;
  r.from = 5;
  r.to = 2;
  CHECK(viz::request_problem(r) == "--from 5 is after --to 2");
  r = {};
  r.format = viz::ExportFormat::Gif;
  r.transparent = true;
  CHECK(viz::request_problem(r).find("GIF exports have a background") != std::string::npos);
}

TEST_CASE("median cut: few colours kept exactly, extras first, a ramp within a small error") {
  std::vector<std::uint8_t> px;
  for (int i = 0; i < 100; ++i) px.insert(px.end(), {static_cast<std::uint8_t>(i % 3 * 100), 20, 30, 255});
  const std::vector<viz::Rgba> few = viz::median_cut_palette(px.data(), 100, {{1, 2, 3, 255}});
  CHECK(few.size() == 4);
  CHECK(few[0] == viz::Rgba{1, 2, 3, 255});

  // A 4096-colour ramp through the viridis map: more colours than a GIF holds.
  px.clear();
  const viz::Colormap& map = viz::colormap(viz::ColormapId::Viridis);
  for (int i = 0; i < 4096; ++i) {
    const viz::Rgba c = viz::sample(map, static_cast<float>(i) / 4095);
    px.insert(px.end(), {c.r, c.g, c.b, 255});
    px.insert(px.end(), {static_cast<std::uint8_t>(i & 0xff), static_cast<std::uint8_t>(i >> 4), 128, 255});
  }
  const std::vector<viz::Rgba> pal = viz::median_cut_palette(px.data(), px.size() / 4, {});
  CHECK(pal.size() == 256);
  viz::PaletteMapper mapper(pal);
  const std::vector<std::uint8_t> idx = mapper.map(px.data(), px.size() / 4);
  double worst = 0;
  for (size_t i = 0; i < idx.size(); i += 2) {  // the colormap pixels
    const viz::Rgba& q = pal[idx[i]];
    worst = std::max({worst, std::abs(q.r - double(px[4 * i])), std::abs(q.g - double(px[4 * i + 1])), std::abs(q.b - double(px[4 * i + 2]))});
  }
  INFO("worst channel error on the viridis ramp: " << worst);
  CHECK(worst <= 12);
  CHECK(mapper.rgb_table().size() == 3 * pal.size());
}

TEST_CASE("picture sizes: WxH read strictly, checked against the limits, text grows with the height") {
  const auto p = viz::parse_picture_size("1920x1080");
  REQUIRE(p);
  CHECK(p->width == 1920);
  CHECK(p->height == 1080);
  CHECK(viz::parse_picture_size("640X480"));
  CHECK(viz::parse_picture_size("800\u00d7600"));
  for (const char* bad : {"", "x", "1920", "1920x", "x1080", "19a0x1080", "-5x10", "1920x1080x3", "99999999x2"})
    CHECK_MESSAGE(!viz::parse_picture_size(bad), bad);
  viz::ExportRequest r;
  r.path = "a.png";
  r.width = 1280;
  r.height = 720;
  CHECK(viz::request_problem(r).empty());
  r.height = 20;
  CHECK(viz::request_problem(r) == "--export-size: 1280x20 is too small (64 to 8192 pixels a side)");
  r.height = 9000;
  CHECK(viz::request_problem(r).find("too large") != std::string::npos);
  r.height = 720;
  r.scale = 2;
  CHECK(viz::request_problem(r).find("give one") != std::string::npos);
  r.scale = 1;
  r.format = viz::ExportFormat::Npy;
  CHECK(viz::request_problem(r).find("holds numbers, not a picture") != std::string::npos);
  for (const viz::PictureSize& s : viz::picture_sizes()) {
    r.format = viz::ExportFormat::Gif;
    r.width = s.width, r.height = s.height;
    CHECK_MESSAGE(viz::request_problem(r).empty(), s.name);
  }
  CHECK(viz::picture_text_scale(720) == 1);
  CHECK(viz::picture_text_scale(1080) == doctest::Approx(1.5));
  CHECK(viz::picture_text_scale(100) == 1);
  CHECK(viz::picture_text_scale(8000) == 4);
}
