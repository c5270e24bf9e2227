// Fonts: DejaVu Sans rasterised at the sizes we draw (normal and presentation)
// with the glyphs attention needs (Greek, subscripts, √ ∞ × ÷ · Σ ᵀ), falling
// back to ImGui's built-in font when the file is missing.
#pragma once

#include <imgui.h>

namespace viz {

class FontSet {
 public:
  // Loads into the current ImGui context's atlas; call before the first frame.
  FontSet(float base_px, float large_px);

  ImFont* regular() const { return regular_; }
  ImFont* large() const { return large_; }
  // Lesson text faces at the current UI size: bold for **words**, a serif
  // for `math` (the regular face when a file is missing).
  ImFont* bold() const { return presenting_ ? large_bold_ : bold_; }
  ImFont* math() const { return presenting_ ? large_math_ : math_; }
  float base_px() const { return base_px_; }
  bool dejavu() const { return dejavu_; }
  // Picks the rasterised font closest to `px` so scaled canvas text stays crisp.
  ImFont* for_size(float px) const { return px > (base_px_ + large_px_) / 2 ? large_ : regular_; }

  // Switches the whole UI between normal and presentation size.
  void set_presentation(bool on, const ImGuiStyle& base_style);

 private:
  ImVector<ImWchar> ranges_;  // must outlive the atlas build
  ImFont* regular_ = nullptr;
  ImFont* large_ = nullptr;
  ImFont *bold_ = nullptr, *math_ = nullptr, *large_bold_ = nullptr, *large_math_ = nullptr;
  bool presenting_ = false;
  float base_px_, large_px_;
  bool dejavu_ = false;
};

}  // namespace viz
