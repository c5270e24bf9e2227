// Font loading with an explicit glyph list: ImGui only rasterises the code
// points it is given, and the formulas use symbols outside Latin-1.
#include "font_set.hpp"

#include <cstdio>

namespace viz {
namespace {

constexpr const char* kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kDejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
constexpr const char* kDejaVuSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf";
constexpr const char* kExtraGlyphs =
    "₀₁₂₃₄₅₆₇₈₉₋ⱼᵢ √∞−×÷·Σ∑ᵀ→←↑↓…ταβγδεθλμπσφω≈≤≥±‖⋅∈□■▶⏸⏮⏭●○✓✗⚠—–“”’•";

bool file_exists(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (f) std::fclose(f);
  return f != nullptr;
}

}  // namespace

FontSet::FontSet(float base_px, float large_px) : base_px_(base_px), large_px_(large_px) {
  ImGuiIO& io = ImGui::GetIO();
  ImFontGlyphRangesBuilder builder;
  builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
  static_assert(sizeof(ImWchar) >= 2, "ImWchar holds the BMP");
  for (ImWchar c = 0x0391; c <= 0x03C9; ++c) builder.AddChar(c);  // Greek
  builder.AddText(kExtraGlyphs);
  builder.BuildRanges(&ranges_);

  if (file_exists(kDejaVu)) {
    ImFontConfig config;
    config.OversampleH = 2;
    config.OversampleV = 2;
    regular_ = io.Fonts->AddFontFromFileTTF(kDejaVu, base_px, &config, ranges_.Data);
    large_ = io.Fonts->AddFontFromFileTTF(kDejaVu, large_px, &config, ranges_.Data);
    dejavu_ = regular_ && large_;
    auto face = [&](const char* file, float px, ImFont* fallback) {
      return file_exists(file) ? io.Fonts->AddFontFromFileTTF(file, px, &config, ranges_.Data) : fallback;
    };
    bold_ = face(kDejaVuBold, base_px, regular_);
    math_ = face(kDejaVuSerif, base_px, regular_);
    large_bold_ = face(kDejaVuBold, large_px, large_);
    large_math_ = face(kDejaVuSerif, large_px, large_);
  }
  if (!dejavu_) {
    ImFontConfig config;
    config.SizePixels = base_px;
    regular_ = io.Fonts->AddFontDefault(&config);
    config.SizePixels = large_px;
    large_ = io.Fonts->AddFontDefault(&config);
  }
  if (!bold_) bold_ = math_ = regular_, large_bold_ = large_math_ = large_;
  io.FontDefault = regular_;
}

void FontSet::set_presentation(bool on, const ImGuiStyle& base_style) {
  ImGui::GetIO().FontDefault = on ? large_ : regular_;
  presenting_ = on;
  ImGuiStyle& style = ImGui::GetStyle();
  style = base_style;
  if (on) style.ScaleAllSizes(large_px_ / base_px_);
}

}  // namespace viz
