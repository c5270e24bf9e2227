// Wrapped text of any length, broken only at spaces.
// - ImGui::TextWrapped puts every glyph of its text into the window's draw
//   list, which holds at most 65,536 vertices (16-bit indices in Debian's
//   ImGui 1.86): a 20,000-character description aborted the app. This lays
//   out every line but draws only those in view.
// - ImGui also breaks lines after a '.', so a number could wrap as "0." and
//   "4376". Here a line breaks only at a space (or a newline); a word wider
//   than the line is cut where it must be.
#pragma once

#include <string_view>

namespace viz {

// Like ImGui::TextWrapped at the cursor, wrapped at the window's content
// width; lines outside the window's clip rectangle take their room unseen.
void wrapped_text(std::string_view text);

}  // namespace viz
