// Fonts: DejaVu rasterised at the sizes actually drawn, so text is crisp at
// any UI size and zoom: the UI faces (sans, bold, serif for math) at the UI
// size, and a ladder of canvas sizes; canvas text uses the smallest rasterised
// size at least as large as asked (scaled down a little, never up, below the
// top of the ladder). The atlas is rebuilt when the UI size changes.
// Glyphs cover what attention needs (Greek, subscripts, √ ∞ × ÷ · Σ ᵀ).
#pragma once

#include <array>

#include <imgui.h>

namespace viz {

class FontSet {
 public:
  static constexpr float kBasePx = 17;  // UI text at 100%

  // Builds the atlas for `ui_px` (kBasePx × the UI scale). Call before the
  // first frame; later, between frames, followed by a new font texture.
  void build(float ui_px);
  float ui_px() const { return ui_px_; }

  ImFont* regular() const { return regular_; }
  // Lesson text faces: bold for **words**, a serif for `math` (the regular
  // face when a file is missing).
  ImFont* bold() const { return bold_; }
  ImFont* math() const { return math_; }
  bool dejavu() const { return dejavu_; }
  // The canvas face for text of `px` pixels.
  ImFont* for_size(float px) const;

 private:
  static constexpr std::array<float, 6> kLadder = {11, 16, 23, 33, 47, 68};
  ImVector<ImWchar> ranges_;  // must outlive the atlas build
  ImFont *regular_ = nullptr, *bold_ = nullptr, *math_ = nullptr;
  std::array<ImFont*, kLadder.size()> canvas_{};
  float ui_px_ = 0;
  bool dejavu_ = false;
};

}  // namespace viz
