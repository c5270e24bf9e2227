// Tally charts with ImGui's draw list: plain shapes and text, so they read
// the same on a projector, in a slide export and at 1024x768. Right answers
// are green with a tick once revealed; before that nothing is marked, so the
// chart shows what the class thinks without giving the answer away.
#include "classroom/class_tally_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "attn/text/format_number.hpp"
#include "widgets/fit_label.hpp"

namespace viz {

namespace {

constexpr ImU32 kBar = IM_COL32(90, 140, 220, 255);
constexpr ImU32 kRight = IM_COL32(40, 170, 90, 255);
constexpr ImU32 kTrack = IM_COL32(128, 128, 128, 40);
constexpr float kChoiceRowLines = 2.6f;  // a choice's text and its bar, in font heights
constexpr int kMaxCellBars = 6;          // grids of up to this many cells are drawn as bars

ImU32 text_colour() { return ImGui::GetColorU32(ImGuiCol_Text); }

// Each choice's text on its own line, its bar under it: the text stays
// whole at 1024x768, where a label beside the bar was cut to a word.
void choice_bars(const model::ClassTally& t, const model::ClassQuestion& q, ImVec2 at, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int n = static_cast<int>(t.choice_counts.size());
  if (n == 0) return;
  const float font = ImGui::GetFontSize();
  const float row = std::min(size.y / static_cast<float>(n), font * kChoiceRowLines);
  const float count_w = ImGui::CalcTextSize("0000").x;
  const float bar_w = std::max(1.0f, size.x - count_w);
  const int most = std::max(1, *std::max_element(t.choice_counts.begin(), t.choice_counts.end()));
  for (int i = 0; i < n; ++i) {
    const float y = at.y + row * static_cast<float>(i);
    const bool right = i == t.right_choice;
    const std::string label = (right ? "✓ " : "") + (i < static_cast<int>(q.choices.size()) ? q.choices[static_cast<size_t>(i)] : "");
    dl->AddText(ImVec2(at.x, y), right ? kRight : text_colour(), fit_label(label, size.x).c_str());
    const float top = y + font * 1.2f, bottom = y + std::max(font * 1.3f, row - font * 0.35f);
    dl->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + bar_w, bottom), kTrack);
    const float w = bar_w * static_cast<float>(t.choice_counts[static_cast<size_t>(i)]) / static_cast<float>(most);
    if (w > 0) dl->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + w, bottom), right ? kRight : kBar);
    dl->AddText(ImVec2(at.x + bar_w + font * 0.4f, (top + bottom - font) * 0.5f), text_colour(),
                std::to_string(t.choice_counts[static_cast<size_t>(i)]).c_str());
  }
}

// The label of one cell of the asked grid: its column's for a single row
// ("quiet drama"), its row's for a single column, else both.
std::string cell_label(const model::ClassQuestion& q, int r, int c) {
  const auto label = [](const std::vector<std::string>& labels, int i) {
    return i < static_cast<int>(labels.size()) && !labels[static_cast<size_t>(i)].empty() ? labels[static_cast<size_t>(i)] : std::to_string(i);
  };
  if (q.rows == 1) return label(q.col_labels, c);
  if (q.cols == 1) return label(q.row_labels, r);
  return label(q.row_labels, r) + " → " + label(q.col_labels, c);
}

bool right_cell(const model::ClassTally& t, int r, int c) {
  for (const auto& [rr, cc] : t.right_cells)
    if (rr == r && cc == c) return true;
  return false;
}

// A grid of a few cells reads best as a bar per cell with its labels whole
// (a 1x3 heat map cut "quiet drama" to "q…").
void cell_bars(const model::ClassTally& t, const model::ClassQuestion& q, ImVec2 at, ImVec2 size) {
  model::ClassTally as_choices = t;
  model::ClassQuestion labelled = q;
  labelled.choices.clear();
  as_choices.right_choice = -1;
  for (int r = 0; r < q.rows; ++r)
    for (int c = 0; c < q.cols; ++c) {
      labelled.choices.push_back(cell_label(q, r, c));
      if (right_cell(t, r, c)) as_choices.right_choice = r * q.cols + c;
    }
  as_choices.choice_counts = t.cell_counts;
  choice_bars(as_choices, labelled, at, size);
}

void cell_heat_map(const model::ClassTally& t, const model::ClassQuestion& q, ImVec2 at, ImVec2 size) {
  if (q.rows <= 0 || q.cols <= 0 || t.cell_counts.size() != static_cast<size_t>(q.rows * q.cols)) return;
  if (q.rows * q.cols <= kMaxCellBars && t.right_cells.size() <= 1) {
    cell_bars(t, q, at, size);
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_w = std::min(size.x * 0.3f, ImGui::GetFontSize() * 5);
  const float label_h = ImGui::GetFontSize() * 1.3f;
  const float cell = std::max(2.0f, std::min((size.x - label_w) / static_cast<float>(q.cols), (size.y - label_h) / static_cast<float>(q.rows)));
  const ImVec2 grid(at.x + label_w, at.y + label_h);
  const int most = std::max(1, *std::max_element(t.cell_counts.begin(), t.cell_counts.end()));
  const bool numbers = cell >= ImGui::CalcTextSize("00").x + 4;
  for (int c = 0; c < q.cols && c < static_cast<int>(q.col_labels.size()); ++c)
    dl->AddText(ImVec2(grid.x + cell * static_cast<float>(c) + 2, at.y), text_colour(), fit_label(q.col_labels[static_cast<size_t>(c)], cell - 2).c_str());
  for (int r = 0; r < q.rows; ++r) {
    const float y = grid.y + cell * static_cast<float>(r);
    if (r < static_cast<int>(q.row_labels.size()))
      dl->AddText(ImVec2(at.x, y + (cell - ImGui::GetFontSize()) * 0.5f), text_colour(), fit_label(q.row_labels[static_cast<size_t>(r)], label_w - 4).c_str());
    for (int c = 0; c < q.cols; ++c) {
      const int count = t.cell_counts[static_cast<size_t>(r * q.cols + c)];
      const float share = static_cast<float>(count) / static_cast<float>(most);
      const ImVec2 p0(grid.x + cell * static_cast<float>(c), y), p1(p0.x + cell - 1, p0.y + cell - 1);
      // White to deep orange: a cell nobody clicked stays blank.
      const ImU32 fill = IM_COL32(255, static_cast<int>(255 - 150 * share), static_cast<int>(255 - 230 * share), 255);
      dl->AddRectFilled(p0, p1, fill);
      if (numbers && count > 0) {
        const std::string n = std::to_string(count);
        const ImVec2 ts = ImGui::CalcTextSize(n.c_str());
        dl->AddText(ImVec2(p0.x + (cell - ts.x) * 0.5f, p0.y + (cell - ts.y) * 0.5f), IM_COL32(20, 20, 20, 255), n.c_str());
      }
    }
  }
  for (const auto& [r, c] : t.right_cells) {
    if (r < 0 || c < 0 || r >= q.rows || c >= q.cols) continue;
    const ImVec2 p0(grid.x + cell * static_cast<float>(c), grid.y + cell * static_cast<float>(r));
    dl->AddRect(p0, ImVec2(p0.x + cell - 1, p0.y + cell - 1), kRight, 0, 0, std::max(2.0f, cell * 0.08f));
  }
}

void number_histogram(const model::ClassTally& t, ImVec2 at, ImVec2 size) {
  if (t.bins.empty()) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float axis_h = ImGui::GetFontSize() * 1.4f;
  const float h = std::max(4.0f, size.y - axis_h);
  const float bin_w = size.x / static_cast<float>(t.bins.size());
  const int most = std::max(1, *std::max_element(t.bins.begin(), t.bins.end()));
  for (size_t i = 0; i < t.bins.size(); ++i) {
    const float bh = h * static_cast<float>(t.bins[i]) / static_cast<float>(most);
    const float x = at.x + bin_w * static_cast<float>(i);
    if (bh > 0) dl->AddRectFilled(ImVec2(x + 1, at.y + h - bh), ImVec2(x + bin_w - 1, at.y + h), kBar);
  }
  dl->AddLine(ImVec2(at.x, at.y + h), ImVec2(at.x + size.x, at.y + h), text_colour());
  const std::string lo = attn::format_number(t.low), hi = attn::format_number(t.high);
  dl->AddText(ImVec2(at.x, at.y + h + 2), text_colour(), lo.c_str());
  dl->AddText(ImVec2(at.x + size.x - ImGui::CalcTextSize(hi.c_str()).x, at.y + h + 2), text_colour(), hi.c_str());
  if (t.truth && t.high > t.low) {
    const float x = at.x + size.x * static_cast<float>((*t.truth - t.low) / (t.high - t.low));
    dl->AddLine(ImVec2(x, at.y), ImVec2(x, at.y + h), kRight, std::max(2.0f, ImGui::GetFontSize() * 0.15f));
  }
}

}  // namespace

float class_tally_height(const model::ClassTally& t, const model::ClassQuestion& q) {
  const float font = ImGui::GetFontSize();
  switch (t.form) {
    case model::ClassQuestion::Form::Choice: return font * kChoiceRowLines * static_cast<float>(std::max<size_t>(1, t.choice_counts.size()));
    case model::ClassQuestion::Form::Cell:
      if (q.rows * q.cols <= kMaxCellBars && t.right_cells.size() <= 1) return font * kChoiceRowLines * static_cast<float>(std::max(1, q.rows * q.cols));
      return font * (1.3f + 1.6f * static_cast<float>(std::clamp(q.rows, 1, 8)));
    case model::ClassQuestion::Form::Number: return font * 8;
  }
  return font * 8;
}

std::string tally_headline(const model::ClassTally& t) {
  std::string line = std::to_string(t.answers) + (t.answers == 1 ? " answer" : " answers");
  if (t.right >= 0 && t.answers > 0) {
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.0f%%", 100.0 * t.right / t.answers);
    line += ", " + std::to_string(t.right) + " right (" + pct + ")";
  }
  if (t.truth) line += "\nThe answer: " + attn::format_number(*t.truth);
  return line;
}

void draw_class_tally(const model::ClassTally& t, const model::ClassQuestion& q, float height) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(10.0f, ImGui::GetContentRegionAvail().x), height);
  switch (t.form) {
    case model::ClassQuestion::Form::Choice: choice_bars(t, q, at, size); break;
    case model::ClassQuestion::Form::Cell: cell_heat_map(t, q, at, size); break;
    case model::ClassQuestion::Form::Number: number_histogram(t, at, size); break;
  }
  ImGui::Dummy(size);
}

}  // namespace viz
