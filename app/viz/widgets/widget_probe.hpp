// Where named widgets were drawn, for --dump-layout: the UI tests and the
// README's pictures find a button or a field by its name, not by pixels.
// Every view records into it, so it sits below all of them.
#pragma once

#include <map>
#include <string>

#include <imgui.h>

namespace viz {

// Each entry: a widget's name and its rectangle (min x, min y, max x, max y).
using WidgetProbe = std::map<std::string, ImVec4>;

// Records the last item's rectangle under `name`; nothing when probe is null.
void probe_item(WidgetProbe* probe, const std::string& name);

}  // namespace viz
