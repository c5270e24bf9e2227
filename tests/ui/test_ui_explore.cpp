// The explore panels under Xvfb: `--panel why-scale` and `--panel hull`
// open their windows at start, and a screenshot shows them drawn, not
// blank: histogram bars in both colours, and the hull plot with every value
// point where the model maps it. Without --panel neither window exists.
#include <doctest/doctest.h>

#include <string>

#include "feature/plot_style.hpp"
#include "ui_support.hpp"
#include "model_names.hpp"
#include "model/explore/hull_view.hpp"

using namespace ui_test;

namespace {

viz::Rgba rgba(ImU32 c) {
  return {static_cast<std::uint8_t>(c & 0xFF), static_cast<std::uint8_t>((c >> 8) & 0xFF),
          static_cast<std::uint8_t>((c >> 16) & 0xFF), 255};
}

struct Box {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// The rectangle of a widget the app recorded in its layout dump, at least
// min_size pixels each way.
Box widget_box(const Shot& shot, const std::string& name, int min_size = 100) {
  const nlohmann::json& w = shot.layout["widgets"];
  REQUIRE_MESSAGE(w.contains(name), "the layout dump has no widget " << name);
  const nlohmann::json& r = w[name];
  Box b{r[0].get<int>(), r[1].get<int>(), r[2].get<int>(), r[3].get<int>()};
  CHECK(b.x0 >= 0);
  CHECK(b.y0 >= 0);
  CHECK(b.x1 <= shot.image.width);
  CHECK(b.y1 <= shot.image.height);
  CHECK(b.x1 - b.x0 > min_size);
  CHECK(b.y1 - b.y0 > min_size);
  return b;
}

int count_colour(const Shot& shot, const Box& b, viz::Rgba colour, int tolerance = 4) {
  int n = 0;
  for (int y = b.y0; y < b.y1; ++y)
    for (int x = b.x0; x < b.x1; ++x) n += distance(shot.image.at(x, y), colour) <= tolerance ? 1 : 0;
  return n;
}

}  // namespace

TEST_SUITE("explore") {
  TEST_CASE("ui: --panel why-scale draws both histograms and the softmax rows") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/why_scale.json", "why_scale_panel",
                            "--panel why-scale");
    const Box panel = widget_box(shot, "panel.why_scale");
    const Box raw = widget_box(shot, "why_scale.unscaled", 50), scaled = widget_box(shot, "why_scale.scaled", 50);
    for (const Box& b : {raw, scaled}) {  // both plots inside the window
      CHECK(b.x0 >= panel.x0);
      CHECK(b.x1 <= panel.x1);
      CHECK(b.y1 <= panel.y1);
    }
    // Bars in each plot's own colour; at d_k = 64 on the ±40 axis the
    // unscaled bars spread wide and low, the scaled ones stand tall in the middle.
    const int orange = count_colour(shot, raw, rgba(viz::plot::kUnscaled));
    const int blue = count_colour(shot, scaled, rgba(viz::plot::kScaled));
    const int stray = count_colour(shot, raw, rgba(viz::plot::kScaled)) + count_colour(shot, scaled, rgba(viz::plot::kUnscaled));
    INFO("bar pixels: unscaled " << orange << ", scaled " << blue << ", in the wrong plot " << stray);
    CHECK(orange > 300);
    CHECK(blue > 300);
    CHECK(stray == 0);
    // The softmax rows below the plots: the unscaled row has a saturated cell.
    const Box rows{panel.x0, raw.y1, panel.x1, panel.y1};
    CHECK(count_colour(shot, rows, viz::sample(viz::colourmap(viz::ColourmapId::SingleHue), 1.0f), 6) > 100);
  }

  TEST_CASE("ui: --panel hull plots the values of convex_hull_2d where the model puts them") {
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/convex_hull_2d.json";
    const Shot shot = shoot(scene, "hull_panel", "--panel hull");
    widget_box(shot, "panel.hull");
    const Box plot = widget_box(shot, "hull.plot");
    const viz::HullView view = viz::build_hull_view(shot.trace, 0);
    REQUIRE(view.ok);
    const viz::Rect screen{double(plot.x0), double(plot.y0), double(plot.x1), double(plot.y1)};
    // An output drawn on top may cover a value's centre (the origin token's
    // output sits next to its value), so look within 2 pixels of it.
    for (size_t j = 0; j < view.values.size(); ++j) {
      const viz::Vec2d p = viz::hull_to_screen(view, screen, view.values[j]);
      const Box near{static_cast<int>(p.x) - 2, static_cast<int>(p.y) - 2, static_cast<int>(p.x) + 3, static_cast<int>(p.y) + 3};
      CHECK_MESSAGE(count_colour(shot, near, rgba(viz::plot::kValue), 12) > 0,
                    "value " << j << " at (" << p.x << ", " << p.y << ") is not drawn");
    }
    // The hull's inside is tinted: most of the plot is neither background nor blank.
    const int background = count_colour(shot, plot, rgba(viz::plot::kBackground), 1);
    const int area = (plot.x1 - plot.x0) * (plot.y1 - plot.y0);
    INFO("background pixels " << background << " of " << area);
    CHECK(background < area * 0.8);
  }

  TEST_CASE("ui: without --panel neither explore window is open, with d_v = 3 the hull panel explains") {
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json";
    const Shot plain = shoot(scene, "no_panels", "");
    CHECK_FALSE(plain.layout["widgets"].contains("panel.why_scale"));
    CHECK_FALSE(plain.layout["widgets"].contains("panel.hull"));
    const Shot hull = shoot(scene, "hull_dv3", "--panel hull");
    widget_box(hull, "panel.hull");
    CHECK_FALSE(hull.layout["widgets"].contains("hull.plot"));
  }
}
