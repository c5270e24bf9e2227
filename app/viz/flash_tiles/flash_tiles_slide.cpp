// The FlashAttention tiles as a slide: what the desk's window shows, laid out
// to fit the slide's canvas at a projector's text size. The desk's window is
// a tall scrolling list with a formula column beside each grid; on a slide
// each grid sits under its formula, in two columns, the whole score matrix
// beside the header, and nothing is drawn past the window.
#include <algorithm>
#include <string>
#include <vector>

#include "attn/text/format_number.hpp"
#include "attn/compute/stage_kind.hpp"
#include "flash_tiles/flash_tiles_parts.hpp"

namespace viz::flash_parts {
namespace {

// Where a grid of the tile goes on its line: under its formula, or beside
// it when the grid is narrow (a column of row maxima), which saves a line.
struct LinePlan {
  ImVec2 cell;          // one cell, in pixels
  bool beside = false;  // the cells right of the formula
  float text_width = 0; // the formula's wrap width
  float height = 0;     // the line's height, spacing included
};

LinePlan plan_line(const FlashGrid& g, float width) {
  const float font = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const int cols = std::max(1, static_cast<int>(g.values.cols()));
  LinePlan p;
  p.cell = ImVec2(std::clamp(width / static_cast<float>(cols), font * 1.0f, font * 3.2f), font * 1.12f);
  const float cells_w = p.cell.x * static_cast<float>(cols), cells_h = p.cell.y * static_cast<float>(g.values.rows());
  p.beside = cells_w <= width * 0.35f;
  p.text_width = p.beside ? width - cells_w - style.ItemSpacing.x : width;
  const float text = ImGui::CalcTextSize(g.formula.c_str(), nullptr, false, p.text_width).y;
  p.height = (p.beside ? std::max(text, cells_h) : text + style.ItemSpacing.y + cells_h) + font * 0.15f + 2 * style.ItemSpacing.y;
  return p;
}

// A grid of the tile with its formula, `width` pixels wide at most.
void slide_grid_line(const FlashGrid& g, const LinePlan& plan, const FlashTilesView& view, FlashTilesState& state,
                     const ColourOptions& colour, WidgetProbe* probe) {
  const float font = ImGui::GetFontSize();
  const float x0 = ImGui::GetCursorPosX();
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(x0 + plan.text_width);
  ImGui::TextWrapped("%s", g.formula.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  if (plan.beside) {
    // SameLine's offset counts from an enclosing group; the cursor's does not.
    ImGui::SameLine();
    ImGui::SetCursorPosX(x0 + plan.text_width + ImGui::GetStyle().ItemSpacing.x);
  }
  const std::string name(attn::name_of(g.kind));
  const auto [r, c] = draw_flash_cells(g, plan.cell, colour, "##slide_" + name, probe, "flash:grid:" + name);
  explain_hovered_cell(g, view, state, r, c);
  ImGui::Dummy(ImVec2(1, font * 0.15f));
}

// The slow-memory counts in one sentence: the desk's window gives each its line.
std::string traffic_summary(const FlashTilesView& view) {
  const long long standard = view.standard.total();
  auto versus = [&](long long n) {
    if (n <= 0) return std::string();
    const double ratio = static_cast<double>(standard) / static_cast<double>(n);
    return " (" + attn::format_number(ratio, 3) + "× " + (ratio >= 1 ? "less" : "more") + ")";
  };
  std::string out = "Slow memory, elements read + written: standard " + attn::format_number(static_cast<double>(standard), 6) +
                    "; these tiles " + attn::format_number(static_cast<double>(view.tiled.total()), 6) + versus(view.tiled.total());
  if (view.paper_ok)
    out += "; the paper's " + std::to_string(view.paper_blocks.rows) + " × " + std::to_string(view.paper_blocks.cols) + " blocks " +
           attn::format_number(static_cast<double>(view.paper.total()), 6) + versus(view.paper.total());
  return out + ".";
}

}  // namespace

void draw_flash_tiles_slide(const FlashTilesView& view, FlashTilesState& state, const ColourOptions& colour, WidgetProbe* probe,
                            bool stepper) {
  const float font = ImGui::GetFontSize();
  const float gap = font * 1.2f;
  const float column = (ImGui::GetContentRegionAvail().x - gap) / 2;
  const float left = ImGui::GetCursorPosX();

  // Header: where the loop is and that it matches, the whole S beside it.
  const float overview = std::min(column, font * 5);
  const float text_right = ImGui::GetContentRegionAvail().x - overview - gap;
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(left + text_right);
  ImGui::TextWrapped("Head %d, tiles of %d × %d", view.head, state.block_rows, state.block_cols);
  if (!view.ok()) {
    draw_flash_refusal(view, colour, probe);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    return;
  }
  ImGui::TextWrapped("now %s", tile_label(view).c_str());
  probe_item(probe, "flash:tile");
  if (stepper) draw_flash_stepper(view, state, probe, false);
  ImGui::TextWrapped("matches plain softmax to %s", attn::format_number(view.run.max_abs_diff, 2).c_str());
  probe_item(probe, "flash:difference");
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::SameLine(left + text_right + gap);
  draw_flash_overview(view, colour, overview, probe, false);
  ImGui::Separator();

  // The loop's lines in two columns of about equal height, in loop order.
  std::vector<const FlashGrid*> lines;
  for (const FlashGrid& g : view.grids) lines.push_back(&g);
  if (view.block_done) lines.push_back(&view.block_output);
  std::vector<LinePlan> plans;
  float total = 0;
  for (const FlashGrid* g : lines) {
    plans.push_back(plan_line(*g, column));
    total += plans.back().height;
  }
  if (!view.block_done) total += ImGui::CalcTextSize("O_i / ℓ comes after key block 10, the last", nullptr, false, column).y;
  std::size_t half = 0;
  for (float sum = 0; half < lines.size() && sum + plans[half].height / 2 <= total / 2; ++half) sum += plans[half].height;
  ImGui::BeginGroup();
  for (std::size_t i = 0; i < half; ++i) slide_grid_line(*lines[i], plans[i], view, state, colour, probe);
  ImGui::EndGroup();
  ImGui::SameLine(left + column + gap);
  ImGui::BeginGroup();
  for (std::size_t i = half; i < lines.size(); ++i) slide_grid_line(*lines[i], plans[i], view, state, colour, probe);
  if (!view.block_done) {
    ImGui::PushTextWrapPos(left + 2 * column + gap);
    ImGui::TextDisabled("O_i / ℓ comes after key block %d, the last", view.key_blocks());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndGroup();
  ImGui::Separator();
  ImGui::PushTextWrapPos(0);
  ImGui::TextWrapped("%s", traffic_summary(view).c_str());
  ImGui::PopTextWrapPos();
  probe_item(probe, "flash:hbm");
}

}  // namespace viz::flash_parts
