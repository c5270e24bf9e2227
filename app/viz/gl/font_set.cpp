// Font loading with an explicit glyph list: ImGui only rasterises the code
// points it is given, and the formulas use symbols outside Latin-1. Every
// build starts from an empty atlas, so a UI size change frees the old sizes.
#include "gl/font_set.hpp"

#include "gl/font_glyphs.hpp"

#include <cstdio>

namespace viz {
namespace {

constexpr const char* kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kDejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
constexpr const char* kDejaVuSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf";

bool file_exists(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (f) std::fclose(f);
  return f != nullptr;
}

}  // namespace

void FontSet::build(float ui_px) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ui_px_ = ui_px;
  if (ranges_.empty()) {
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
    static_assert(sizeof(ImWchar) >= 2, "ImWchar holds the BMP");
    for (char32_t c = kGreekFirst; c <= kGreekLast; ++c) builder.AddChar(static_cast<ImWchar>(c));  // Greek
    builder.AddText(kExtraGlyphs);
    builder.BuildRanges(&ranges_);
  }
  dejavu_ = file_exists(kDejaVu);
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 1;
  auto face = [&](const char* file, float px, ImFont* fallback) -> ImFont* {
    if (file_exists(file)) return io.Fonts->AddFontFromFileTTF(file, px, &config, ranges_.Data);
    if (fallback) return fallback;
    ImFontConfig builtin;
    builtin.SizePixels = px;
    return io.Fonts->AddFontDefault(&builtin);
  };
  regular_ = face(kDejaVu, ui_px, nullptr);
  bold_ = face(kDejaVuBold, ui_px, regular_);
  math_ = face(kDejaVuSerif, ui_px, regular_);
  for (size_t i = 0; i < kLadder.size(); ++i) canvas_[i] = face(kDejaVu, kLadder[i], nullptr);
  io.FontDefault = regular_;
  io.Fonts->Build();
}

ImFont* FontSet::for_size(float px) const {
  for (size_t i = 0; i < kLadder.size(); ++i)
    if (kLadder[i] >= px * 0.97f) return canvas_[i];
  return canvas_.back();
}

}  // namespace viz
