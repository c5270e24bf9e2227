// What an export writes, decided without a window: the format from the file
// name, which stage, the time range of an animation and the moment of each
// frame (animation is a function of time, so frame k is evaluate(t_k)).
// The menu and `attnviz --export` build the same ExportRequest.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/animation/timeline.hpp"

namespace model {

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
  // PNG, GIF, MP4: the picture's size in pixels, the grids laid out for it
  // (0: the window's canvas, times `scale`).
  int width = 0, height = 0;
  bool transparent = false;  // PNG and SVG: no background
  double from = 0, to = -1;  // GIF, MP4: timeline seconds; to < 0: the end
  int fps = 10;
};

// Picture sizes offered for exports and slides (any other WxH can be typed,
// within kMinPictureSide..kMaxPictureSide).
struct PictureSize {
  int width, height;
  const char* name;
};
const std::vector<PictureSize>& picture_sizes();
constexpr int kMinPictureSide = 64, kMaxPictureSide = 8192;

// "1280x720" (or 1280X720, 1280×720) as a size; nullopt for anything else.
std::optional<PictureSize> parse_picture_size(const std::string& text);

// The text size a picture of this height is drawn with, as a multiple of
// the window's: a 720-pixel picture reads like the window at 1x, a taller
// one gets larger text in step, so numbers and labels keep their share of
// the picture (from 1 to 4).
double picture_text_scale(int height);

// Animation frame times: from, from + 1/fps, ... up to and including `to`
// (to clamped to [from, total]); one frame when the range is empty.
std::vector<double> frame_times(const ExportRequest& r, double total);

// A stage's time range on the timeline (its steps), for "export this
// stage's animation"; nullopt when the stage has no steps (an input).
std::optional<Timeline::Span> stage_span(const Timeline& tl, int stage);

// What is wrong with a request, or "" when it can run: e.g. "--scale: 3 is
// not offered (use 1, 2 or 4)", "--from 5 is after --to 2", "--export-size:
// 10x10 is too small (64 to 8192 pixels a side)".
std::string request_problem(const ExportRequest& r);

}  // namespace model
