// Draws the "FlashAttention tiles" window from a FlashTilesView: the block
// controls, the tile stepper, the tile's grids one line of the loop each
// (title and formula on the left, cells on the right), the whole score
// matrix with the tile outlined, and the slow-memory counts. Only pixels,
// hover and button presses happen here; the session computes.
#include "flash_tiles/flash_tiles_panel.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "attn/explain/explain.hpp"
#include "attn/text/format_number.hpp"
#include "canvas/grid_painter.hpp"
#include "flash_tiles/flash_tiles_parts.hpp"
#include "feature/panel_window.hpp"
#include "gl/theme_style.hpp"
#include "model/colour/colourmap.hpp"
#include "model/settings/theme.hpp"

namespace viz {
namespace flash_parts {

ImU32 flash_cell_colour(const FlashGrid& g, double v, const ColourOptions& colour) {
  if (g.probability) return to_imgui(sample(colourmap(colour.probability_map), static_cast<float>(v / g.hi)));
  return to_imgui(sample(colourmap(colour.signed_map), static_cast<float>(0.5 + 0.5 * v / g.hi)));
}

// Cells of one grid at the cursor, `cell` pixels each; numbers printed when
// they fit. Returns the cell under the mouse as (row, col), or (-1, -1).
std::pair<int, int> draw_flash_cells(const FlashGrid& g, ImVec2 cell, const ColourOptions& colour, const std::string& id,
                               WidgetProbe* probe, const std::string& probe_name) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ThemePalette& pal = palette(colour.theme);
  const int rows = static_cast<int>(g.values.rows()), cols = static_cast<int>(g.values.cols());
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id.c_str(), ImVec2(std::max(1.0f, cell.x * cols), std::max(1.0f, cell.y * rows)));
  probe_item(probe, probe_name);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const ImVec2 a(top.x + cell.x * c, top.y + cell.y * r), b(a.x + cell.x, a.y + cell.y);
      const double v = g.values(r, c);
      if (!std::isfinite(v)) {
        paint_masked(dl, a, b, pal);
      } else {
        const ImU32 fill = flash_cell_colour(g, v, colour);
        dl->AddRectFilled(a, b, fill);
        const std::string text = attn::format_number(v, 2);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        if (size.x + 4 <= cell.x && size.y <= cell.y)
          dl->AddText(ImVec2(a.x + (cell.x - size.x) / 2, a.y + (cell.y - size.y) / 2),
                      to_imgui(text_colour_on(sample(colourmap(g.probability ? colour.probability_map : colour.signed_map),
                                                     g.probability ? static_cast<float>(v / g.hi)
                                                                   : static_cast<float>(0.5 + 0.5 * v / g.hi)))),
                      text.c_str());
      }
    }
  dl->AddRect(top, ImVec2(top.x + cell.x * cols, top.y + cell.y * rows), to_imgui(pal.grid_frame));
  if (!ImGui::IsItemHovered()) return {-1, -1};
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int r = std::clamp(static_cast<int>((m.y - top.y) / cell.y), 0, rows - 1);
  const int c = std::clamp(static_cast<int>((m.x - top.x) / cell.x), 0, cols - 1);
  return {r, c};
}

void draw_flash_blocks(const FlashTilesView& view, FlashTilesState& state, WidgetProbe* probe) {
  const float font = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(font * 6);
  if (ImGui::InputInt("B_r", &state.block_rows)) state.block_rows = clamp_block(state.block_rows, view.n_q);
  probe_item(probe, "flash:block_rows");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("queries per block (1 to n_q = %d)", view.n_q);
  ImGui::SameLine(0, font * 1.2f);
  ImGui::SetNextItemWidth(font * 6);
  if (ImGui::InputInt("B_c", &state.block_cols)) state.block_cols = clamp_block(state.block_cols, view.n_k);
  probe_item(probe, "flash:block_cols");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("keys per block (1 to n_k = %d)", view.n_k);
  ImGui::SameLine(0, font * 1.2f);
  ImGui::SetNextItemWidth(font * 7.5f);
  const long long step = 256;
  if (ImGui::InputScalar("M", ImGuiDataType_S64, &state.sram, &step, &step)) state.sram = std::max(1LL, state.sram);
  probe_item(probe, "flash:sram");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("on-chip memory, in elements, for the paper's block sizes");
}

void draw_flash_stepper(const FlashTilesView& view, FlashTilesState& state, WidgetProbe* probe, bool label) {
  const int qb = view.query_blocks(), kb = view.key_blocks();
  if (ImGui::Button("< tile")) {
    state.playing = false;
    state.tile = previous_tile(state.tile, qb, kb);
  }
  probe_item(probe, "flash:previous");
  ImGui::SameLine();
  if (ImGui::Button("tile >")) {
    state.playing = false;
    state.tile = next_tile(state.tile, qb, kb);
  }
  probe_item(probe, "flash:next");
  ImGui::SameLine();
  if (ImGui::Button(state.playing ? "pause" : "play")) {
    if (state.playing) {
      state.playing = false;
    } else {
      const bool at_end = tile_order(state.tile, kb) >= qb * kb - 1;
      state.play_from = at_end ? 0 : tile_order(state.tile, kb);
      state.play_seconds = 0;
      state.playing = true;
    }
  }
  probe_item(probe, "flash:play");
  if (!label) return;
  ImGui::SameLine();
  ImGui::TextUnformatted(tile_label(view).c_str());
  probe_item(probe, "flash:tile");
}

void explain_hovered_cell(const FlashGrid& g, const FlashTilesView& view, FlashTilesState& state, int r, int c) {
  if (r < 0) return;
  state.hover = FlashHover{static_cast<int>(g.kind), view.tile, r, c};
  // The core's explanation arrives a frame after the hover (the session makes
  // it); until then, and where there is none, the value alone.
  ImGui::BeginTooltip();
  if (view.hovered_ok && view.hovered_cell == *state.hover) ImGui::TextUnformatted(view.hovered.to_text().c_str());
  else ImGui::Text("%s [%d, %d] = %s", g.title.c_str(), r, c, attn::format_number(g.values(r, c), 6).c_str());
  ImGui::EndTooltip();
}

void draw_flash_refusal(const FlashTilesView& view, const ColourOptions& colour, WidgetProbe* probe) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(to_imgui(palette(colour.theme).error)));
  ImGui::TextWrapped("No tiles for this head: %s", view.error.c_str());
  ImGui::PopStyleColor();
  probe_item(probe, "flash:error");
}

// One line of the loop: a grid's title and formula on the left, its cells on the right.
// `reserve`: pixels kept free at the right (the overview sits there).
void draw_flash_grid_line(const FlashGrid& g, const FlashTilesView& view, FlashTilesState& state, float label_width,
                          float reserve, const ColourOptions& colour, WidgetProbe* probe) {
  const float font = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const std::string name(attn::name_of(g.kind));
  const float x0 = ImGui::GetCursorPosX();
  ImGui::BeginGroup();
  ImGui::TextUnformatted(g.title.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(x0 + label_width - style.ItemSpacing.x);
  ImGui::TextWrapped("%s", g.formula.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::EndGroup();
  ImGui::SameLine(x0 + label_width);
  const float avail = ImGui::GetContentRegionAvail().x - reserve;
  const int cols = std::max(1, static_cast<int>(g.values.cols()));
  const ImVec2 cell(std::clamp(avail / static_cast<float>(cols), font * 1.0f, font * 3.2f), font * 1.25f);
  const auto [r, c] = draw_flash_cells(g, cell, colour, "##" + name, probe, "flash:grid:" + name);
  explain_hovered_cell(g, view, state, r, c);
}

// The whole (n_q, n_k) score matrix, small, with the current tile outlined.
void draw_flash_overview(const FlashTilesView& view, const ColourOptions& colour, float side, WidgetProbe* probe, bool titled) {
  const FlashGrid& g = view.scores;
  const float font = ImGui::GetFontSize();
  const float n = static_cast<float>(std::max(g.values.rows(), g.values.cols()));
  const float px = std::clamp(side / std::max(1.0f, n), 2.0f, font * 1.2f);
  ImGui::BeginGroup();
  if (titled) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side);
    ImGui::TextWrapped("the whole S, this tile outlined");
    ImGui::PopTextWrapPos();
  }
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const auto [r, c] = draw_flash_cells(g, ImVec2(px, px), colour, "##overview", probe, "flash:overview");
  const attn::FlashTile& t = view.run.tile(view.tile.i, view.tile.j);
  const ImVec2 a(top.x + px * static_cast<float>(t.col0), top.y + px * static_cast<float>(t.row0));
  const ImVec2 b(a.x + px * static_cast<float>(t.cols), a.y + px * static_cast<float>(t.rows));
  ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1),
                                      to_imgui(palette(colour.theme).step), 0, 0, 2.5f);
  ImGui::EndGroup();
  if (r >= 0)
    ImGui::SetTooltip("S[%d, %d] = %s (query block %d, key block %d)", r, c, attn::format_number(g.values(r, c), 4).c_str(),
                      r / view.block_rows + 1, c / view.block_cols + 1);
}

std::string thousands(long long v) {
  std::string s = std::to_string(v);
  for (int at = static_cast<int>(s.size()) - 3; at > 0; at -= 3) s.insert(static_cast<size_t>(at), ",");
  return s;
}

// "what: R read + W written", and against the standard path when `compare`.
std::string flash_traffic_line(const std::string& what, const attn::HbmTraffic& t, const attn::HbmTraffic& standard, bool compare) {
  std::string line = what + ": " + thousands(t.reads) + " read + " + thousands(t.writes) + " written";
  if (compare && t.total() > 0) {
    const double ratio = static_cast<double>(standard.total()) / static_cast<double>(t.total());
    line += " (" + attn::format_number(ratio, 3) + "× " + (ratio >= 1 ? "less" : "more") + " than standard)";
  }
  return line;
}

void draw_flash_traffic(const FlashTilesView& view, WidgetProbe* probe) {
  ImGui::BeginGroup();
  ImGui::Text("Slow-memory (HBM) elements, n_q = %d, n_k = %d, d = %d:", view.n_q, view.n_k, std::max(view.d_k, view.d_v));
  ImGui::TextWrapped("%s", flash_traffic_line("standard", view.standard, view.standard, false).c_str());
  const std::string yours = "tiles of " + std::to_string(view.block_rows) + " × " + std::to_string(view.block_cols);
  ImGui::TextWrapped("%s", flash_traffic_line(yours, view.tiled, view.standard, true).c_str());
  if (view.paper_ok) {
    const std::string paper = "the paper's " + std::to_string(view.paper_blocks.rows) + " × " + std::to_string(view.paper_blocks.cols);
    ImGui::TextWrapped("%s", flash_traffic_line(paper, view.paper, view.standard, true).c_str());
  }
  ImGui::EndGroup();
  probe_item(probe, "flash:hbm");
}

}  // namespace flash_parts

using namespace flash_parts;

void draw_flash_tiles_panel(const FlashTilesView& view, FlashTilesState& state, const ColourOptions& colour, bool* open,
                            ImVec2 canvas_pos, ImVec2 canvas_size, WidgetProbe* probe, bool slide, bool stepper) {
  const float font = ImGui::GetFontSize();
  // Wider than a narrow canvas if need be (it may cover a side panel): the
  // tile's lines need room for a formula beside their cells.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Wider than a small canvas, it may cover the inspector on the right, but
  // never the editor or the lesson panel on the left (a lesson's Next).
  const float left = canvas_pos.x + font * 0.5f;
  const ImVec2 size = slide ? canvas_size
                            : ImVec2(std::min(font * 46, display.x - left - font * 0.5f), std::min(font * 56, display.y - canvas_pos.y - 2 * font));
  const ImVec2 pos = slide ? canvas_pos : ImVec2(std::max(left, canvas_pos.x + canvas_size.x - size.x - font), canvas_pos.y + font * 0.5f);
  if (!begin_panel("FlashAttention tiles", open, pos, size, probe, "panel.flash", slide)) return;
  state.hover.reset();  // set again below while the mouse is on a cell
  if (slide) {
    draw_flash_tiles_slide(view, state, colour, probe, stepper);
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("Head %d, tile by tile: B_r queries meet B_c keys at a time; a running max m and sum ℓ stand in "
                     "for the whole softmax row.", view.head);
  draw_flash_blocks(view, state, probe);
  if (!view.ok()) {
    draw_flash_refusal(view, colour, probe);
    ImGui::End();
    return;
  }
  draw_flash_stepper(view, state, probe, true);
  ImGui::TextUnformatted(difference_label(view).c_str());
  probe_item(probe, "flash:difference");
  ImGui::Separator();
  // The tile's lines on the left, the whole score matrix beside them.
  const float overview = font * 9;
  const float label_width = std::min(font * 17, (ImGui::GetContentRegionAvail().x - overview) * 0.5f);
  ImGui::BeginGroup();
  for (const FlashGrid& g : view.grids) draw_flash_grid_line(g, view, state, label_width, overview + font, colour, probe);
  if (view.block_done) draw_flash_grid_line(view.block_output, view, state, label_width, overview + font, colour, probe);
  else ImGui::TextDisabled("O_i / ℓ comes after key block %d, the last", view.key_blocks());
  ImGui::EndGroup();
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - overview);
  draw_flash_overview(view, colour, overview, probe, true);
  ImGui::Separator();
  draw_flash_traffic(view, probe);
  ImGui::End();
}

}  // namespace viz
