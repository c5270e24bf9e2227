// The three palettes. Dark keeps the light theme's hues one step lighter so
// they read on a dark canvas; high contrast keeps every text and line black
// and every highlight fully saturated.
#include "model/settings/theme.hpp"

namespace model {
namespace {

constexpr Rgba c(int r, int g, int b, int a = 255) {
  return {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(a)};
}

constexpr ThemePalette kLight{
    c(250, 250, 252), c(200, 202, 210), c(25, 25, 35), c(90, 90, 105), c(70, 70, 85), c(80, 80, 95), c(95, 95, 110),
    c(175, 180, 195),
    c(236, 238, 242),
    c(178, 178, 186), c(120, 120, 130),
    c(222, 224, 232), c(245, 246, 250), c(120, 110, 170),
    c(171, 99, 250), c(230, 170, 40), c(0, 180, 130),
    c(255, 140, 0), c(255, 160, 0, 40),
    c(120, 60, 220), c(140, 80, 240, 45),
    c(20, 20, 30),
    c(0, 150, 140), c(0, 170, 160, 35),
    c(255, 255, 255, 235), c(205, 208, 218),
    c(25, 25, 50), c(100, 100, 120), c(50, 50, 115), c(90, 50, 190), c(25, 60, 150),
    c(13, 128, 50), c(165, 20, 12), c(150, 70, 0),
    c(255, 238, 236, 245), c(210, 60, 50),
    c(255, 170, 160),
    c(20, 22, 30, 165), c(255, 20, 20)};

constexpr ThemePalette kDark{
    c(30, 32, 38), c(86, 90, 104), c(236, 236, 242), c(172, 174, 188), c(188, 190, 202), c(182, 184, 196), c(166, 169, 182),
    c(104, 110, 130),
    c(50, 53, 62),
    c(100, 100, 110), c(160, 160, 172),
    c(56, 59, 70), c(40, 42, 50), c(178, 168, 236),
    c(192, 142, 255), c(242, 188, 72), c(44, 206, 156),
    c(255, 152, 32), c(255, 160, 0, 52),
    c(172, 132, 255), c(150, 100, 255, 60),
    c(246, 246, 250),
    c(40, 204, 188), c(0, 190, 175, 48),
    c(40, 43, 52, 242), c(84, 88, 104),
    c(232, 232, 238), c(152, 155, 170), c(178, 184, 236), c(190, 166, 255), c(140, 182, 255),
    c(96, 206, 126), c(255, 118, 100), c(255, 176, 80),
    c(74, 36, 36, 245), c(232, 92, 80),
    c(150, 60, 55),
    c(0, 0, 0, 175), c(255, 40, 40)};

constexpr ThemePalette kHighContrast{
    c(255, 255, 255), c(0, 0, 0), c(0, 0, 0), c(0, 0, 0), c(0, 0, 0), c(0, 0, 0), c(0, 0, 0),
    c(70, 70, 70),
    c(224, 224, 224),
    c(150, 150, 150), c(0, 0, 0),
    c(200, 200, 200), c(255, 255, 255), c(0, 0, 0),
    c(130, 0, 230), c(200, 120, 0), c(0, 140, 90),
    c(240, 100, 0), c(255, 120, 0, 60),
    c(110, 0, 210), c(120, 40, 230, 60),
    c(0, 0, 0),
    c(0, 120, 110), c(0, 150, 140, 50),
    c(255, 255, 255, 255), c(0, 0, 0),
    c(0, 0, 0), c(40, 40, 40), c(0, 0, 0), c(80, 0, 170), c(0, 40, 140),
    c(0, 90, 25), c(150, 0, 0), c(130, 55, 0),
    c(255, 230, 225, 255), c(150, 0, 0),
    c(255, 150, 140),
    c(0, 0, 0, 170), c(255, 0, 0)};

}  // namespace

const ThemePalette& palette(Theme theme) {
  switch (theme) {
    case Theme::Light: return kLight;
    case Theme::Dark: return kDark;
    case Theme::HighContrast: return kHighContrast;
  }
  return kLight;
}

}  // namespace model
