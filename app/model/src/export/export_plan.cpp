// Format detection, frame times and request checks for exports (export_plan.hpp).
#include "model/export/export_plan.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace model {

std::optional<ExportFormat> export_format_of(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return std::nullopt;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "png") return ExportFormat::Png;
  if (ext == "svg") return ExportFormat::Svg;
  if (ext == "gif") return ExportFormat::Gif;
  if (ext == "mp4") return ExportFormat::Mp4;
  if (ext == "csv") return ExportFormat::Csv;
  if (ext == "npy") return ExportFormat::Npy;
  if (ext == "json") return ExportFormat::Json;
  return std::nullopt;
}

const char* export_format_name(ExportFormat f) {
  switch (f) {
    case ExportFormat::Png: return "PNG";
    case ExportFormat::Svg: return "SVG";
    case ExportFormat::Gif: return "GIF";
    case ExportFormat::Mp4: return "MP4";
    case ExportFormat::Csv: return "CSV";
    case ExportFormat::Npy: return "NPY";
    case ExportFormat::Json: return "JSON";
  }
  return "?";
}

const std::vector<PictureSize>& picture_sizes() {
  static const std::vector<PictureSize> sizes = {
      {1920, 1080, "1920×1080 (16:9, full HD)"}, {1280, 720, "1280×720 (16:9)"}, {1024, 768, "1024×768 (4:3 projector)"}};
  return sizes;
}

std::optional<PictureSize> parse_picture_size(const std::string& text) {
  // The separator: x, X or the multiplication sign (two bytes in UTF-8).
  size_t sep = text.find_first_of("xX"), sep_len = 1;
  if (sep == std::string::npos) {
    sep = text.find("\u00d7");
    sep_len = 2;
  }
  if (sep == std::string::npos || sep == 0 || sep + sep_len >= text.size()) return std::nullopt;
  auto number = [](const std::string& digits) -> std::optional<int> {
    if (digits.empty() || digits.size() > 6) return std::nullopt;
    int v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  const std::optional<int> w = number(text.substr(0, sep)), h = number(text.substr(sep + sep_len));
  if (!w || !h) return std::nullopt;
  return PictureSize{*w, *h, ""};
}

double picture_text_scale(int height) { return std::clamp(height / 720.0, 1.0, 4.0); }

bool is_animation(ExportFormat f) { return f == ExportFormat::Gif || f == ExportFormat::Mp4; }
bool is_stage_data(ExportFormat f) { return f == ExportFormat::Csv || f == ExportFormat::Npy; }

std::vector<double> frame_times(const ExportRequest& r, double total) {
  const double from = std::clamp(r.from, 0.0, total);
  const double to = std::clamp(r.to < 0 ? total : r.to, from, total);
  const int fps = std::max(1, r.fps);
  // The count is computed once, so rounding cannot add or drop a last frame.
  const int n = static_cast<int>(std::floor((to - from) * fps + 1e-9)) + 1;
  std::vector<double> t;
  for (int k = 0; k < n; ++k) t.push_back(from + static_cast<double>(k) / fps);
  return t;
}

std::optional<Timeline::Span> stage_span(const Timeline& tl, int stage) {
  for (size_t k = 0; k < tl.stage_order.size() && k < tl.spans.size(); ++k)
    if (tl.stage_order[k] == stage) return tl.spans[k];
  return std::nullopt;
}

std::string request_problem(const ExportRequest& r) {
  auto text = [](double v) {
    std::string s = std::to_string(v);
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
  };
  if (r.scale != 1 && r.scale != 2 && r.scale != 4) return "--scale: " + text(r.scale) + " is not offered (use 1, 2 or 4)";
  const bool sized = r.width != 0 || r.height != 0;
  if (sized) {
    const std::string size = std::to_string(r.width) + "x" + std::to_string(r.height);
    if (r.format == ExportFormat::Svg) return "--export-size: an SVG has no pixel size (it scales; use --scale for its text size)";
    if (is_stage_data(r.format) || r.format == ExportFormat::Json)
      return "--export-size: a " + std::string(export_format_name(r.format)) + " file holds numbers, not a picture";
    if (std::min(r.width, r.height) < kMinPictureSide)
      return "--export-size: " + size + " is too small (" + std::to_string(kMinPictureSide) + " to " +
             std::to_string(kMaxPictureSide) + " pixels a side)";
    if (std::max(r.width, r.height) > kMaxPictureSide)
      return "--export-size: " + size + " is too large (" + std::to_string(kMinPictureSide) + " to " +
             std::to_string(kMaxPictureSide) + " pixels a side)";
    if (r.scale != 1) return "--scale and --export-size: give one (a sized picture chooses its own text size)";
  }
  if (r.to >= 0 && r.from > r.to) return "--from " + text(r.from) + " is after --to " + text(r.to);
  if (r.from < 0) return "--from: " + text(r.from) + " is before the start (0)";
  if (r.transparent && (r.format == ExportFormat::Gif || r.format == ExportFormat::Mp4))
    return "--transparent: " + std::string(export_format_name(r.format)) + " exports have a background (use PNG or SVG)";
  return "";
}

}  // namespace model
