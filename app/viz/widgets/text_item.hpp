// Items whose text is the user's or a model's (file names, lesson titles,
// undo names, tokens): ImGui reads "##" in a label as the start of an ID,
// so "a##b.json" or BERT's "##s" would show cut short or blank, and two
// equal names would share one ID. These draw the text themselves beside a
// fixed ID.
#pragma once

#include <string>

#include <imgui.h>

namespace viz {

// A Selectable showing `text` verbatim; `id` makes it unique. In a menu it
// closes the menu when clicked, as a MenuItem does.
bool text_selectable(const std::string& text, const std::string& id, bool selected = false, ImGuiSelectableFlags flags = 0);

}  // namespace viz
