// PNG capture (written bottom row last: GL's origin is bottom-left) and JSON dumps,
// written to a temporary file and renamed so a reader never sees half a file.
#include "shell/capture.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/framing/window_title.hpp"
#include "model/explore/rope_dial.hpp"

#include "attn/io/text_file.hpp"
#include "gl/gl.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_opening.hpp"
#include "model/export/png_file.hpp"
#include <imgui.h>

namespace viz {

void write_dump(const std::string& path, const std::string& text) {
  try {
    attn::io::write_text_atomically(path, text, attn::io::Durability::Renamed);
  } catch (const std::exception&) {
    // A dump that cannot be written is skipped: the test reading it says so.
  }
}

namespace {

nlohmann::json row_of(const attn::Stage* s, int row) {
  nlohmann::json out = nlohmann::json::array();
  if (!s || row >= s->value.rows()) return out;
  for (Eigen::Index c = 0; c < s->value.cols(); ++c) out.push_back(s->value(row, c));
  return out;
}

}  // namespace

std::string write_screenshot(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  return model::write_png(path, {pixels.data(), width, height, 3, static_cast<size_t>(width) * 3, model::RowOrder::BottomUp});
}

void write_state_dump(const std::string& path, const AppState& state, const TraceModel& model,
                      const nlohmann::json& train, const nlohmann::json& extra) {
  nlohmann::json j;
  j["train"] = train;
  if (extra.is_object())
    for (const auto& [key, value] : extra.items()) j[key] = value;
  j["revision"] = state.revision;
  j["document"] = state.document;
  j["assets_dir"] = state.assets_dir;
  j["path"] = state.path;
  j["title"] = state.doc.title;
  j["dirty"] = state.dirty();
  j["can_undo"] = state.history.can_undo();
  j["error"] = model.error();
  j["cancelled"] = model.cancelled();  // the user stopped a recompute: what the grids show instead
  j["has_trace"] = model.has_trace();
  j["stale"] = model.stale();
  j["preview"] = model.preview();  // a big document's first trace, one head so far
  j["message"] = state.message;
  j["confirm_discard"] = state.confirm_discard;
  j["save_dialog"] = state.save_dialog;
  j["open_dialog"] = state.open_dialog;
  j["opening"] = state.opening;
  j["typing"] = state.draft.widget != 0;
  j["restore_offered"] = state.restore_offer.has_value();
  const char* outside[] = {"same", "changed", "gone"};
  j["disk"] = {{"outside", outside[static_cast<int>(state.disk.outside)]}, {"answered", state.disk.answered},
               {"save_conflict", state.disk.save_conflict}};
  nlohmann::json notices = nlohmann::json::array();
  for (const Notice& n : state.notices) notices.push_back(n.text);
  j["notices"] = notices;
  const ColourOptions& c = state.view.colour;
  j["colour"] = {{"theme", theme_name(c.theme)},
                 {"colormap_signed", colourmap(c.signed_map).name},
                 {"colormap_probabilities", colourmap(c.probability_map).name},
                 {"contrast", contrast_name(c.contrast)},
                 {"log_weights", c.log_weights},
                 {"shared_range", c.shared_range}};
  nlohmann::json offending = nlohmann::json::array();
  for (const InputCell& c : model.offending()) offending.push_back({{"matrix", attn::to_string(c.matrix)}, {"head", c.head}, {"row", c.row}, {"col", c.col}});
  j["offending"] = offending;
  if (state.pinned) j["pinned"] = {{"stage", name_of(state.pinned->stage.id)}, {"head", state.pinned->stage.head}, {"row", state.pinned->row}, {"col", state.pinned->col}};
  j["doc_label"] = state.doc_label;
  j["focus_stage"] = state.view.focus_stage;
  j["view_head"] = state.view.head;
  // scenario_to_json refuses values a file must not hold (e.g. τ = 0 typed
  // mid-edit); the dump then records why instead of ending the app.
  try {
    j["scenario"] = attn::io::scenario_to_json(state.doc);
  } catch (const std::exception& e) {
    j["scenario"] = nullptr;
    j["scenario_error"] = e.what();
    std::fprintf(stderr, "attnviz: state dump without the scenario: %s\n", e.what());
  }
  if (model.has_trace()) {
    const attn::Trace& t = model.trace();
    j["generation"] = model.generation();
    j["tokens"] = t.stages.front().row_labels;
    j["weights_row0"] = row_of(t.find(attn::StageKind::weights, 0), 0);
    j["weights_row_last"] = row_of(t.find(attn::StageKind::weights, 0), t.dims.n_q - 1);
    j["output_row0"] = row_of(t.find(attn::StageKind::output), 0);
    // The RoPE dial of a pinned rotated cell, as the inspector draws it.
    if (state.pinned)
      if (const std::optional<model::RopeDial> dial = model::rope_dial(t, model.scenario(), state.pinned->stage, state.pinned->row)) {
        nlohmann::json pairs = nlohmann::json::array();
        for (const model::RopeDialPair& p : dial->pairs)
          pairs.push_back({{"pair", p.pair}, {"dims", {p.dim_a, p.dim_b}}, {"theta", p.theta}, {"angle", p.angle},
                           {"before", {p.a, p.b}}, {"after", {p.ra, p.rb}}});
        j["rope_dial"] = {{"position", dial->position}, {"rotated", dial->rotated}, {"pairs", pairs}};
      }
  }
  try {
    write_dump(path, j.dump(2));
  } catch (const std::exception& e) {  // e.g. a token name that is not UTF-8
    std::fprintf(stderr, "attnviz: could not write the state dump: %s\n", e.what());
  }
}

std::string state_dump_key(const AppState& state, const TraceModel& model) {
  std::string key = std::to_string(state.revision) + "/" + std::to_string(state.document) + "/" +
                    std::to_string(model.generation()) + "/" + std::to_string(state.notices.size()) + "/" +
                    std::to_string(state.confirm_discard) + std::to_string(state.save_dialog) +
                    std::to_string(state.open_dialog) + state.opening + "/" +
                    std::to_string(state.draft.widget != 0) + std::to_string(state.dirty()) +
                    std::to_string(state.restore_offer.has_value()) + "/" + model.error() + "/" +
                    std::to_string(static_cast<int>(state.disk.outside)) + std::to_string(state.disk.answered) +
                    std::to_string(state.disk.save_conflict) + "/" +
                    state.message + "/" + state.path + "/" + std::to_string(state.pinned.has_value()) + "/" +
                    theme_name(state.view.colour.theme) + colourmap(state.view.colour.signed_map).name +
                    colourmap(state.view.colour.probability_map).name + contrast_name(state.view.colour.contrast) +
                    std::to_string(state.view.colour.log_weights) + std::to_string(state.view.colour.shared_range);
  return key;
}

std::string layout_dump_text(const PipelineLayout& layout, const NumberInputs& numbers, const Rect& canvas,
                             const std::vector<ViewOptions::PinnedAxes>& pinned, const WidgetProbe& widgets, int width,
                             int height, int texture_uploads, int prepared_uploads, const std::vector<ColourScale>* scales) {
  const ViewTransform& view = numbers.view;
  nlohmann::json j;
  j["window"] = {width, height};
  // Widgets settle over the first frames (scroll bars appear, windows fit):
  // tests wait for a few frames before trusting positions.
  j["frame"] = ImGui::GetFrameCount();
  j["ui_px"] = ImGui::GetFontSize();
  j["zoom"] = view.zoom;
  j["bands"] = layout.bands;
  j["canvas"] = {canvas.x0, canvas.y0, canvas.x1, canvas.y1};
  if (texture_uploads >= 0) j["texture_uploads"] = texture_uploads;  // large grids re-uploaded (colour changes)
  // Of those, the ones whose texels came made with a background result.
  if (prepared_uploads >= 0) j["prepared_texture_uploads"] = prepared_uploads;
  // Every grid is planned, in view or not: for a small grid "numbers" then
  // says whether it prints them when scrolled into view at this zoom (a large
  // one is planned over its cells in view, so out of view it has none).
  std::vector<CellTextPlan> plans;
  nlohmann::json grids = nlohmann::json::array();
  for (const GridBox& g : layout.grids) {
    const attn::Stage& s = numbers.trace.stages[static_cast<size_t>(g.stage)];
    const Rect cells = view.to_screen(g.cells);
    const Rect box = view.to_screen(g.box);
    plans.push_back(grid_number_plan(numbers, g, canvas));
    grids.push_back({{"id", name_of(s.id)}, {"head", s.head}, {"rows", g.rows}, {"cols", g.cols}, {"column", g.column},
                     {"band", g.band}, {"x0", cells.x0}, {"y0", cells.y0}, {"x1", cells.x1}, {"y1", cells.y1},
                     {"box", {box.x0, box.y0, box.x1, box.y1}}, {"title", {view.to_screen(g.header).x0, view.to_screen(g.header).y0, view.to_screen(g.header).x1, view.to_screen(g.header).y1}}, {"cell", g.min_cell() * view.zoom}, {"cell_w", g.cell_w * view.zoom}, {"cell_h", g.cell_h * view.zoom},
                     {"numbers", plans.back().numbers}, {"value_px", plans.back().px}});
    // Axis labels pinned to the view's edges: [rows, columns].
    nlohmann::json pins = {false, false};
    for (const ViewOptions::PinnedAxes& p : pinned)
      if (p.stage == g.stage) pins = {p.rows, p.cols};
    grids.back()["pinned"] = pins;
    if (scales && static_cast<size_t>(g.stage) < scales->size()) {
      const ColourScale& scale = (*scales)[static_cast<size_t>(g.stage)];
      const Legend l = legend_of(scale);
      grids.back()["legend"] = {{"lo", l.lo}, {"hi", l.hi}, {"note", l.note}};
      nlohmann::json past = nlohmann::json::array();
      const CellRange in_view = cells_in(g, view, canvas);
      for (int r = in_view.r0; r < in_view.r1 && past.size() < 16; ++r)
        for (int c = in_view.c0; c < in_view.c1 && past.size() < 16; ++c)
          if (!s.is_blocked(r, c) && beyond(scale, r, s.value(r, c))) past.push_back({r, c});
      grids.back()["beyond"] = past;
    }
  }
  j["grids"] = grids;
  j["numbers_hidden_hint"] = numbers_hidden_by_zoom(numbers, layout, plans, canvas);
  // Arrows as routed by the layout, in screen pixels: [from, to, points].
  nlohmann::json arrows = nlohmann::json::array();
  auto name = [&](int grid) {
    const attn::Stage& s = numbers.trace.stages[static_cast<size_t>(layout.grids[static_cast<size_t>(grid)].stage)];
    return nlohmann::json{{"id", name_of(s.id)}, {"head", s.head}};
  };
  for (const ArrowRoute& a : layout.arrows) {
    nlohmann::json points = nlohmann::json::array();
    for (const Vec2d& p : a.points) {
      const Vec2d q = view.to_screen(p);
      points.push_back({q.x, q.y});
    }
    arrows.push_back({{"from", name(a.from)}, {"to", name(a.to)}, {"points", points}});
  }
  j["arrows"] = arrows;
  nlohmann::json w = nlohmann::json::object();
  for (const auto& [name, r] : widgets) w[name] = {r.x, r.y, r.z, r.w};
  j["widgets"] = w;
  return j.dump(1);
}

}  // namespace viz
