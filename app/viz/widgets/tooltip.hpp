// The tooltip every control here uses: shown while the last item is hovered,
// disabled or not, so a greyed-out control can still say why it is grey.
#pragma once

namespace viz {

void hover_tooltip(const char* text);

}  // namespace viz
