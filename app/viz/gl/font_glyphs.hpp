// The code points the font atlas holds (font_set.cpp). ImGui draws "?" for
// any other, so every symbol the lessons, formulas and panels write must be
// here; a UI test checks the shipped lessons against it.
#pragma once

namespace viz {

// Besides Basic Latin, Latin-1 and the Greek letters (U+0391..U+03C9).
constexpr const char* kExtraGlyphs =
    "₀₁₂₃₄₅₆₇₈₉₋ⱼᵢ √∞−×÷·Σ∑ᵀ→←↑↓…ℓταβγδεθλμπσφω≈≤≥±‖⋅∈□■▶▸◂▾⌊⌋⏸⏮⏭●○✓✗⚠—–“”’•";
constexpr char32_t kGreekFirst = 0x0391, kGreekLast = 0x03C9;

}  // namespace viz
