// A score split by the sources of the residual stream, as two sets of
// signed bars: by key source (each summed over the query's sources), then
// by query source, the largest pair's two sources in the emphasis colour.
// The Train view and the inspector (a real model's layer) both draw it.
#pragma once

#include <functional>
#include <string>

#include "attn/why/source_split.hpp"
#include "gl/theme_style.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

struct SourceBarsText {
  std::function<std::string(int)> key_name;  // a key source's label; empty: its name in the split
  std::string between;                       // a line between the two sets ("" : none)
  std::string probe_prefix;                  // bars as prefix + "_key_" / "_query_" + index
  // A slide's room: the key's sources only (query_side false), each bar's
  // text its share of the score alone (share_only).
  bool query_side = true;
  bool share_only = false;
};

void draw_source_bars(const attn::SourceSplit& split, const SourceBarsText& text, const ThemePalette& pal,
                      WidgetProbe* probe);

// The inspector's section for a real model's pinned score: the largest
// pair in words, then the bars.
void draw_model_sources(const attn::SourceSplit& split, const ThemePalette& pal, WidgetProbe* probe);

}  // namespace viz
