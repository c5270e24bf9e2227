// What an export writes, decided without a window: the format from the file
// name, which stage, the time range of an animation and the moment of each
// frame (animation is a function of time, so frame k is evaluate(t_k)).
// The menu and `attnviz --export` build the same ExportRequest.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "viz/timeline.hpp"

namespace viz {

enum class ExportFormat { Png, Svg, Gif, Mp4, Csv, Npy, Json };

// From the extension (case-insensitive); nullopt for anything else.
std::optional<ExportFormat> export_format_of(const std::string& path);
const char* export_format_name(ExportFormat f);  // "PNG", "SVG", ...
bool is_animation(ExportFormat f);                // GIF and MP4
bool is_stage_data(ExportFormat f);               // CSV and NPY: one stage's numbers

struct ExportRequest {
  std::string path;
  ExportFormat format = ExportFormat::Png;
  int stage = -1;            // index into trace.stages: one grid (PNG, SVG, CSV, NPY); -1: the whole canvas
  double scale = 1;          // PNG: 1, 2 or 4 times the window's pixels
  bool transparent = false;  // PNG and SVG: no background
  double from = 0, to = -1;  // GIF, MP4: timeline seconds; to < 0: the end
  int fps = 10;
};

// Animation frame times: from, from + 1/fps, ... up to and including `to`
// (to clamped to [from, total]); one frame when the range is empty.
std::vector<double> frame_times(const ExportRequest& r, double total);

// A stage's time range on the timeline (its steps), for "export this
// stage's animation"; nullopt when the stage has no steps (an input).
std::optional<Timeline::Span> stage_span(const Timeline& tl, int stage);

// What is wrong with a request, or "" when it can run: e.g. "--scale: 3 is
// not offered (use 1, 2 or 4)", "--from 5 is after --to 2".
std::string request_problem(const ExportRequest& r);

}  // namespace viz
