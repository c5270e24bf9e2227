// Wrapped text drawn only where it is in view (see long_text.hpp).
#include "widgets/long_text.hpp"

#include <algorithm>

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

namespace viz {
namespace {

// The end of the line that starts at `s`: after the last whole word that
// fits in `width`, at a newline, or (a word wider than the line) after as
// many characters as fit, at least one. One pass over the characters.
const char* line_end(ImFont* font, float px, const char* s, const char* end, float width) {
  const float scale = px / font->FontSize;
  float x = 0;
  const char* after_word = nullptr;  // the end of the last word that fitted
  const char* p = s;
  while (p < end && *p != '\n') {
    unsigned int c = 0;
    const int n = std::max(1, ImTextCharFromUtf8(&c, p, end));
    if (c == ' ') {
      if (p > s && p[-1] != ' ') after_word = p;
    } else if (x + font->GetCharAdvance(static_cast<ImWchar>(c)) * scale > width && p > s) {
      return after_word ? after_word : p;
    }
    x += font->GetCharAdvance(static_cast<ImWchar>(c)) * scale;
    p += n;
  }
  return p;
}

}  // namespace

void wrapped_text(std::string_view text) {
  if (text.empty()) return;
  ImFont* font = ImGui::GetFont();
  const float px = ImGui::GetFontSize();
  const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  const float step = ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.y;
  const float clip_top = ImGui::GetWindowDrawList()->GetClipRectMin().y;
  const float clip_bottom = ImGui::GetWindowDrawList()->GetClipRectMax().y;
  const char* s = text.data();
  const char* const end = text.data() + text.size();
  float unseen = 0;  // the height of the lines skipped since the last one drawn
  auto flush = [&] {
    if (unseen > 0) ImGui::Dummy({width, unseen - ImGui::GetStyle().ItemSpacing.y});
    unseen = 0;
  };
  while (s < end) {
    const char* e = line_end(font, px, s, end, width);
    const float y = ImGui::GetCursorScreenPos().y + unseen;
    if (y + step < clip_top || y > clip_bottom) {
      unseen += step;
    } else {
      flush();
      const char* shown = e;
      while (shown > s && shown[-1] == ' ') --shown;
      ImGui::TextUnformatted(s, shown);
    }
    s = e;
    if (s < end && *s == '\n') ++s;
    else
      while (s < end && *s == ' ') ++s;
  }
  flush();
}

}  // namespace viz
