// Draws the "KV cache" window from a KvCacheModel; see kv_cache_panel.hpp.
// Stepping writes the choice; the session clamps it and advances play.
#include "kv_cache/kv_cache_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "kv_cache/kv_cache_grid.hpp"
#include "feature/panel_window.hpp"
#include "feature/plot_style.hpp"

namespace viz {
namespace {

std::string with_thousands(long long n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

std::string ratio_text(long long a, long long b) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f× fewer", b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0);
  return text;
}

void draw_step_control(const KvCacheModel& model, KvCacheChoice& choice, WidgetProbe* probe, bool slide) {
  const int n = model.steps(), t = model.step();
  if (slide) {  // a slide says which token arrives; the buttons are the desk's
    ImGui::TextWrapped("Token %d of %d (step t = %d): '%s' arrives", t + 1, n, t, model.view().tokens[static_cast<size_t>(t)].c_str());
    probe_item(probe, "kv:step");
    return;
  }
  ImGui::BeginDisabled(t <= 0);
  if (ImGui::Button("< token")) {
    choice.step = t - 1;
    choice.playing = false;
  }
  ImGui::EndDisabled();
  probe_item(probe, "kv:prev");
  ImGui::SameLine();
  ImGui::BeginDisabled(t >= n - 1);
  if (ImGui::Button("token >")) {
    choice.step = t + 1;
    choice.playing = false;
  }
  ImGui::EndDisabled();
  probe_item(probe, "kv:next");
  ImGui::SameLine();
  if (ImGui::Button(choice.playing ? "pause" : "play", ImVec2(ImGui::GetFontSize() * 3.5f, 0))) {
    choice.playing = !choice.playing;
    // Play from the start again once the last token has arrived.
    choice.play_from = t >= n - 1 ? 0 : t;
    choice.play_time = 0;
    if (choice.playing) choice.step = choice.play_from;
  }
  probe_item(probe, "kv:play");
  ImGui::TextWrapped("Token %d of %d (step t = %d): '%s' arrives", t + 1, n, t, model.view().tokens[static_cast<size_t>(t)].c_str());
  probe_item(probe, "kv:step");
}

// The columns (keys) the query cannot see this step: −∞ in its logits.
std::vector<bool> blocked_keys(const attn::DecodeStep& step, int head) {
  std::vector<bool> blocked;
  if (const attn::Stage* logits = step.find(attn::StageKind::step_logits, head))
    for (Eigen::Index j = 0; j < logits->value.cols(); ++j) blocked.push_back(std::isinf(logits->value(0, j)) && logits->value(0, j) < 0);
  return blocked;
}

void coloured_wrapped(ImU32 colour, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, plot::to_vec4(colour));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

void section(const char* text) {
  ImGui::Spacing();
  coloured_wrapped(plot::kAxis, text);
}

// A one-row grid with its name to the left.
void row_grid(const char* name, const attn::Stage* stage, const char* probe_name, float label_width, float room,
              const ColourOptions& colour, WidgetProbe* probe, std::optional<KvCacheChoice::Hover>& hover,
              std::vector<bool> blocked = {}) {
  if (!stage) return;
  const ImVec2 cell = kv_cell_size(static_cast<int>(stage->value.cols()), room - label_width, ImGui::GetFontSize() * 2.8f);
  KvGrid grid{stage, probe_name, {name}, -1, {}, std::move(blocked)};
  if (auto h = draw_kv_grid(grid, cell, label_width, colour, probe)) hover = h;
}

void draw_grids(const KvCacheModel& model, const attn::DecodeStep& step, const ColourOptions& colour, WidgetProbe* probe,
                std::optional<KvCacheChoice::Hover>& hover) {
  const attn::Dims& d = model.view().decode.dims;
  const int head = model.head(), leader = d.kv_leader(head);
  const float font = ImGui::GetFontSize(), room = ImGui::GetContentRegionAvail().x;
  const float label = font * 6.5f;
  const std::vector<bool> blocked = blocked_keys(step, head);

  section("New rows, from the arriving token");
  // Side by side when the three fit on one line, else one under another.
  const attn::Stage* fresh[] = {step.find(attn::StageKind::step_q, head), step.find(attn::StageKind::step_k, leader),
                                step.find(attn::StageKind::step_v, leader)};
  const char* names[] = {"q_t", "k_t", "v_t"};
  const char* probes[] = {"kv:grid:q", "kv:grid:k", "kv:grid:v"};
  const float short_label = font * 2.2f, gap = font * 1.2f;
  float line = 0;
  for (const attn::Stage* st : fresh)
    if (st) line += short_label + static_cast<float>(st->value.cols()) * font * 2.5f + gap;
  const bool one_line = line <= room;
  for (int i = 0; i < 3; ++i) {
    if (one_line && i > 0) ImGui::SameLine(0, gap);
    const float w = one_line ? short_label : label;
    row_grid(names[i], fresh[i], probes[i], w, one_line ? w + (fresh[i] ? static_cast<float>(fresh[i]->value.cols()) : 1) * font * 2.5f : room,
             colour, probe, hover);
  }

  section(step.t == 0 ? "Caches: empty before, row 0 new"
                      : ("Caches: rows 0–" + std::to_string(step.t - 1) + " reused, row " + std::to_string(step.new_row) + " new")
                            .c_str());
  const attn::Stage* k_cache = step.find(attn::StageKind::k_cache, leader);
  const attn::Stage* v_cache = step.find(attn::StageKind::v_cache, leader);
  std::vector<std::string> labels(model.view().tokens.begin(), model.view().tokens.begin() + step.t + 1);
  float token_width = 0;
  for (const std::string& s : labels) token_width = std::max(token_width, ImGui::CalcTextSize(s.c_str()).x);
  token_width += font * 0.6f;
  const int cols = (k_cache ? static_cast<int>(k_cache->value.cols()) : 0) + (v_cache ? static_cast<int>(v_cache->value.cols()) : 0);
  ImVec2 cell = kv_cell_size(cols, room - token_width - font * 2, font * 2.8f);
  // Tall caches shrink their rows so that what comes below them (four
  // one-row grids and about eight lines: a caption, the table, the check)
  // stays in view; past a minimum the window scrolls instead.
  const float below = ImGui::GetTextLineHeightWithSpacing() * 8 + 4 * font * 1.25f;
  const float cache_room = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() - below;
  cell.y = std::min(cell.y, std::max(font * 0.6f, cache_room / static_cast<float>(step.t + 1)));
  const ImVec2 caption = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
  ImGui::BeginGroup();
  ImGui::GetWindowDrawList()->AddText(ImVec2(caption.x + token_width, caption.y), plot::kText, "K cache");
  if (cell.y < font) labels.clear();  // too thin for names
  if (auto h = draw_kv_grid(KvGrid{k_cache, "kv:grid:k_cache", labels, step.new_row, blocked, {}}, cell, labels.empty() ? 0 : token_width,
                            colour, probe))
    hover = h;
  ImGui::EndGroup();
  ImGui::SameLine(0, font * 1.5f);
  const float v_x = ImGui::GetCursorScreenPos().x;
  ImGui::GetWindowDrawList()->AddText(ImVec2(v_x, caption.y), plot::kText, "V cache");
  if (auto h = draw_kv_grid(KvGrid{v_cache, "kv:grid:v_cache", {}, step.new_row, blocked, {}}, cell, 0, colour, probe)) hover = h;

  section("The new query against every cached key");
  row_grid("scores", step.find(attn::StageKind::step_scores, head), "kv:grid:scores", label, room, colour, probe, hover, blocked);
  row_grid("weights", step.find(attn::StageKind::step_weights, head), "kv:grid:weights", label, room, colour, probe, hover, blocked);
  row_grid("head output", step.find(attn::StageKind::step_head_output, head), "kv:grid:head_output", label, room, colour, probe, hover);
  row_grid("output", step.find(attn::StageKind::step_output), "kv:grid:output", label, room, colour, probe, hover);
}

// One row of the multiply-add table: with the cache, without, the ratio.
void macs_row(const char* name, long long cached, long long uncached) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(with_thousands(cached).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(with_thousands(uncached).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(ratio_text(uncached, cached).c_str());
}

void draw_counters(const KvCacheModel& model, const attn::DecodeStep& step, WidgetProbe* probe) {
  const attn::DecodeCost& c = step.cost;
  const attn::Dims& d = model.view().decode.dims;
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::BeginGroup();
  // A table, so that no number is broken across lines in a narrow window.
  if (ImGui::BeginTable("macs", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupColumn("multiply-adds");
    ImGui::TableSetupColumn("cached");
    ImGui::TableSetupColumn(("all " + std::to_string(c.tokens) + " again").c_str());
    ImGui::TableSetupColumn("saving");
    ImGui::TableHeadersRow();
    macs_row("this step", c.cached_macs, c.uncached_macs);
    macs_row("so far", c.cached_total, c.uncached_total);
    ImGui::EndTable();
  }
  std::string heads = std::to_string(d.n_kv_heads) + (d.n_kv_heads == 1 ? " key/value head" : " key/value heads") + " cached";
  if (d.n_kv_heads < d.n_heads) heads += " for " + std::to_string(d.n_heads) + " query heads";
  ImGui::TextWrapped("Cache (fp16): %s bytes, %s per token; %s.", with_thousands(c.cache_bytes_f16).c_str(),
                     with_thousands(c.bytes_per_token_f16).c_str(), heads.c_str());
  ImGui::EndGroup();
  probe_item(probe, "kv:counters");
  const double diff = model.view().max_difference[static_cast<size_t>(model.step())];
  char text[160];
  const bool equal = diff <= 1e-9;
  // The number on a line of its own: a wrap may not break "6.7e-16" at its point.
  const ImU32 ink = equal ? plot::kValue : plot::kOutside;
  ImGui::BeginGroup();
  coloured_wrapped(ink, equal ? "Rows so far equal the full causal trace:" : "Rows so far differ from the full causal trace:");
  std::snprintf(text, sizeof text, "max |difference| = %.1e", diff);
  ImGui::TextColored(plot::to_vec4(ink), "%s", text);
  ImGui::EndGroup();
  probe_item(probe, "kv:compare");
}

void draw_tooltip(const KvCacheModel& model, const KvCacheChoice& choice) {
  const attn::Explanation* e = model.hovered();
  if (!e || !choice.hover || e->stage.id != choice.hover->stage || e->row != choice.hover->row || e->col != choice.hover->col) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
  ImGui::TextUnformatted(e->to_text().c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

void draw_kv_cache_panel(const KvCacheModel& model, KvCacheChoice& choice, const ColourOptions& colour, bool* open,
                         ImVec2 canvas_pos, ImVec2 canvas_size, WidgetProbe* probe, bool slide) {
  const float font = ImGui::GetFontSize();
  // As tall as the canvas allows, up to what a scene of a dozen tokens needs.
  const ImVec2 size = slide ? canvas_size
                            : ImVec2(std::min(font * 36, canvas_size.x - 2 * font), std::min(font * 44, canvas_size.y - 2 * font));
  const ImVec2 pos = slide ? canvas_pos : ImVec2(canvas_pos.x + canvas_size.x - size.x - font, canvas_pos.y + font);
  if (!begin_panel("KV cache", open, pos, size, probe, "panel.kv_cache", slide)) return;
  const KvCacheView& view = model.view();
  const attn::DecodeStep* step = model.current();
  if (!view.ok || !step) {
    coloured_wrapped(plot::kOutside, ("This scene cannot be generated token by token: " +
                                      (view.error.empty() ? std::string("it has no tokens.") : view.error)).c_str());
    probe_item(probe, "kv:error");
    choice.hover.reset();
    ImGui::End();
    return;
  }
  const attn::Dims& d = view.decode.dims;
  if (d.n_kv_heads < d.n_heads)
    ImGui::Text("Head %d (reads key/value head %d of %d)", model.head(), d.kv_index(model.head()), d.n_kv_heads);
  else
    ImGui::Text("Head %d of %d", model.head(), d.n_heads);
  draw_step_control(model, choice, probe, slide);
  std::optional<KvCacheChoice::Hover> hover;
  draw_grids(model, *step, colour, probe, hover);
  choice.hover = hover;
  draw_counters(model, *step, probe);
  draw_tooltip(model, choice);
  ImGui::End();
}

}  // namespace viz
