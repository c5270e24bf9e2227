// Rich text layout: spans are cut into words (a word keeps its trailing
// space), each word is measured in its face, and words flow onto lines no
// wider than the width. Words outside the window's view are laid out but
// not drawn. Drawn through the window's draw list, then a Dummy
// reserves the height so ImGui lays out what follows.
#include "widgets/rich_text_view.hpp"

#include <algorithm>
#include <vector>

#include <imgui.h>

#include "gl/theme_style.hpp"

namespace viz {
namespace {

constexpr float kScriptScale = 0.72f;

struct Word {
  std::string text;
  ImFont* font;
  float px, dy;  // size and baseline shift (scripts)
  ImU32 colour;
  float width;
  bool breaks_after;  // ends in a space: a line may break after it
};

std::vector<Word> words_of(const std::vector<RichSpan>& spans, const FontSet& fonts, const ThemePalette& pal) {
  const float base = ImGui::GetFontSize();
  std::vector<Word> out;
  for (const RichSpan& s : spans) {
    ImFont* font = s.style == RichSpan::Style::Math ? fonts.math()
                   : s.style == RichSpan::Style::Plain ? ImGui::GetFont() : fonts.bold();
    const ImU32 colour = to_imgui(s.style == RichSpan::Style::Math       ? pal.math
                                  : s.style == RichSpan::Style::Emphasis ? pal.emphasis
                                                                         : pal.text);
    const bool script = s.script != RichSpan::Script::Normal;
    const float px = script ? base * kScriptScale : base;
    const float dy = s.script == RichSpan::Script::Sub ? base * 0.35f : s.script == RichSpan::Script::Super ? -base * 0.1f : 0;
    size_t i = 0;
    while (i < s.text.size()) {
      size_t end = s.text.find(' ', i);
      end = end == std::string::npos ? s.text.size() : end + 1;
      Word w{s.text.substr(i, end - i), font, px, dy, colour, 0, s.text[end - 1] == ' '};
      w.width = font->CalcTextSizeA(px, 1e9f, 0, w.text.c_str()).x;
      out.push_back(std::move(w));
      i = end;
    }
  }
  return out;
}

}  // namespace

void draw_rich_text(const std::string& text, const FontSet& fonts, float width, const ThemePalette& palette) {
  const std::vector<Word> words = words_of(parse_rich_text(text), fonts, palette);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line_h = ImGui::GetTextLineHeightWithSpacing() * 1.1f;
  const ImVec2 clip_min = list->GetClipRectMin(), clip_max = list->GetClipRectMax();
  float x = 0, y = 0;
  // A line breaks before a word that would overflow, but only where a space
  // allows it: "d" + subscript "k" stay together.
  for (size_t i = 0; i < words.size(); ++i) {
    float run = 0;  // the unbreakable run starting here
    for (size_t j = i; j < words.size(); ++j) {
      run += words[j].width;
      if (words[j].breaks_after) break;
    }
    if (x > 0 && x + run > width && (i == 0 || words[i - 1].breaks_after)) {
      x = 0;
      y += line_h;
    }
    const Word& w = words[i];
    // Only words inside the clip rectangle are drawn: a draw list holds at
    // most 65,536 vertices (16-bit indices in Debian's ImGui), four a glyph,
    // and a long lesson text would overflow it.
    const float top = origin.y + y + w.dy;
    if (top + line_h >= clip_min.y && top <= clip_max.y)
      list->AddText(w.font, w.px, {origin.x + x, top}, w.colour, w.text.c_str());
    x += w.width;
  }
  ImGui::Dummy({width, y + line_h});
}

}  // namespace viz
