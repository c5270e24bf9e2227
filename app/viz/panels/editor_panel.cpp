// Editor panel: shape, tokens and options. Discrete edits commit one undo
// step each; structural changes go through viz::edit so values are kept.
#include "panels/editor_panel.hpp"

#include <imgui_stdlib.h>

#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "gl/theme_style.hpp"
#include "widgets/typed_fields.hpp"
#include "attn/explain.hpp"
#include "model/document/scenario_edit.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {
namespace {

using edit::Sequence;

void draw_shape(AppState& state, WidgetProbe* probe) {
  const attn::Scenario& s = state.doc.scenario;
  shape_field(state, probe, "tokens", edit::n_tokens(s, Sequence::Queries), 1, 4096,
              "Number of query tokens (rows of X). Type a number and press Enter, or use - and +",
              [](attn::Scenario& x, int n) { edit::set_n_tokens(x, Sequence::Queries, n); });
  shape_field(state, probe, "d_model", edit::d_model(s), 1, 512, "Features per token (columns of X)",
              [](attn::Scenario& x, int d) { edit::set_d_model(x, d); });
  bool projected = !s.heads.empty();
  if (ImGui::Checkbox("learned projections W_Q, W_K, W_V", &projected))
    actions::reshape(state, [&](attn::Scenario& x) { edit::set_projected(x, projected); });
  hover_tooltip("Off: Q = K = V = X, the parameter-free attention of the first article");
  if (projected) {
    shape_field(state, probe, "d_k", edit::d_k(s), 1, 256, "Width of queries and keys (columns of W_Q and W_K)",
                [](attn::Scenario& x, int d) { edit::set_d_k(x, d); });
    shape_field(state, probe, "d_v", edit::d_v(s), 1, 256, "Width of values (columns of W_V)",
                [](attn::Scenario& x, int d) { edit::set_d_v(x, d); });
    shape_field(state, probe, "heads", edit::n_heads(s), 1, 16, "Number of attention heads, each with its own W_Q, W_K, W_V",
                [&](attn::Scenario& x, int h) {
                  edit::set_n_heads(x, h);
                  if (state.view.head >= h) state.view.head = -1;
                });
  }
  bool w_o = s.w_o.has_value();
  if (ImGui::Checkbox("output projection W_O", &w_o)) actions::reshape(state, [&](attn::Scenario& x) { edit::set_w_o(x, w_o); });
  hover_tooltip("Mixes the concatenated heads: output = concat · W_O");
  if (w_o)
    shape_field(state, probe, "d_out", edit::d_out(s), 1, 256, "Output width (columns of W_O)",
                [](attn::Scenario& x, int d) { edit::set_d_out(x, d); });
  bool cross = s.is_cross();
  if (ImGui::Checkbox("cross-attention (keys from a context)", &cross))
    actions::reshape(state, [&](attn::Scenario& x) {
      if (cross && x.heads.empty()) edit::set_projected(x, true);
      edit::set_cross(x, cross);
    });
  hover_tooltip("Queries come from X, keys and values from a separate context sequence C");
  if (cross) {
    shape_field(state, probe, "context tokens", edit::n_tokens(s, Sequence::Context), 1, 4096, "Rows of the context C (the keys)",
                [](attn::Scenario& x, int n) { edit::set_n_tokens(x, Sequence::Context, n); });
    shape_field(state, probe, "d_context", s.context ? static_cast<int>(s.context->cols()) : 1, 1, 512, "Features per context token",
                [](attn::Scenario& x, int d) { edit::set_d_context(x, d); });
  }
}

void draw_tokens(AppState& state, Sequence which, WidgetProbe* probe) {
  attn::Scenario& s = state.doc.scenario;
  const int n = edit::n_tokens(s, which);
  if (n > 64) {
    ImGui::TextDisabled("%d tokens (too many to list; rename them in the file)", n);
    return;
  }
  const std::vector<std::string>& labels = which == Sequence::Queries ? s.tokens : s.context_tokens;
  ImGui::PushID(which == Sequence::Queries ? "q" : "c");
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    const std::string name = i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)]
                                                                  : (which == Sequence::Queries ? "t" : "c") + std::to_string(i);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    std::string renamed;
    if (text_field(state, "##name", name, &renamed)) {
      actions::apply_edit(state, [&](attn::Scenario& sc) { edit::rename_token(sc, which, i, renamed); });
    }
    probe_item(probe, std::string(which == Sequence::Queries ? "token" : "context_token") + "[" + std::to_string(i) + "]");
    hover_tooltip("Type a new name and press Enter");
    ImGui::SameLine();
    if (ImGui::SmallButton("+")) {
      state.shape_memory.forget_token_rows();  // rows after this one move down
      actions::apply_edit(state, [&](attn::Scenario& sc) { edit::insert_token(sc, which, i + 1, ""); });
    }
    hover_tooltip("Insert a token after this one");
    ImGui::SameLine();
    if (n > 1 && ImGui::SmallButton("remove")) {
      state.shape_memory.forget_token_rows();
      actions::apply_edit(state, [&](attn::Scenario& sc) { edit::remove_token(sc, which, i); });
    }
    ImGui::PopID();
    if (edit::n_tokens(s, which) != n) break;  // list changed under us
  }
  ImGui::PopID();
}

void draw_options(AppState& state) {
  attn::Scenario& s = state.doc.scenario;
  auto combo = [&](const char* label, auto* value, const char* items, const char* help) {
    int v = static_cast<int>(*value);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::Combo(label, &v, items)) {
      actions::apply_edit(state, [&](attn::Scenario&) { *value = static_cast<std::remove_pointer_t<decltype(value)>>(v); });
    }
    hover_tooltip(help);
  };
  combo("scaling", &s.scale, "÷ √d_k\0none\0÷ temperature τ\0", "What the scores are divided by before softmax");
  if (s.scale == attn::ScaleMode::Temperature) {
    // A double, so files and dumps keep what the user typed (no 1.30999994);
    // AlwaysClamp keeps a Ctrl+click-typed 0 or negative out of the scenario.
    // The same kind of field as every other number: drag, or double-click
    // to type (a slider jumped to wherever it was clicked).
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    value_cell(state, "τ", &s.temperature, 0.01f, "%.3g", 0.05, 20.0);
    hover_tooltip("Temperature: small τ sharpens the softmax, large τ flattens it.\nDrag, or double-click to type a value (0.05 to 20)");
  }
  combo("score", &s.score, "dot product q·k\0additive v·tanh(qW + kU)\0", "How a query and a key are compared");
  combo("positions", &s.positional, "none\0sinusoidal encoding\0ALiBi bias\0",
        "Position information: added to X (sinusoidal) or as a distance penalty on scores (ALiBi)");
  combo("softmax over", &s.softmax_axis, "keys (rows)\0queries (columns)\0",
        "The axis softmax normalises: over keys (the usual choice) each row of weights sums to 1, so each query's weights sum to 1; over queries each column does");
  attn::MaskKind mask = s.mask;
  int m = static_cast<int>(mask);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  if (ImGui::Combo("mask", &m, "none\0causal\0custom (painted)\0")) {
    actions::apply_edit(state, [&](attn::Scenario& sc) { edit::set_mask_kind(sc, static_cast<attn::MaskKind>(m)); });
  }
  hover_tooltip("Which (query, key) pairs are blocked. Causal: no query may peek at a later token");
  ImGui::Checkbox("paint mask with the mouse", &state.paint_mask);
  hover_tooltip("Click or drag on a score or weight grid to block/unblock cells (switches the mask to custom). Key: M");
  combo("apply mask", &s.mask_mode, "before softmax (−∞)\0after softmax (0)\0",
        "Before softmax (correct): the blocked cells get −∞ and the rest renormalise.\nAfter softmax (a common mistake): blocked weights are zeroed, so rows sum to less than 1");
  const int n_k = static_cast<int>(s.keys_source().rows());
  if (n_k <= 64 && ImGui::TreeNode("padding (block whole keys)")) {
    for (int j = 0; j < n_k; ++j) {
      bool blocked = j < static_cast<int>(s.key_padding.size()) && s.key_padding[static_cast<size_t>(j)];
      ImGui::PushID(j);
      if (ImGui::Checkbox(("key " + std::to_string(j)).c_str(), &blocked)) {
        actions::apply_edit(state, [&](attn::Scenario& sc) { edit::set_key_padding(sc, j, blocked); });
      }
      ImGui::PopID();
      if (j % 4 != 3 && j + 1 < n_k) ImGui::SameLine();
    }
    ImGui::TreePop();
  }
}

// Why the scenario does not compute, and what the student can do about it.
// Offers undo only when there is something to undo.
void draw_error_box(const AppState& state, const TraceModel& model) {
  if (model.error().empty()) return;
  const ImVec4 red = to_imvec4(palette(state.view.colour.theme).error);
  ImGui::PushStyleColor(ImGuiCol_Text, red);
  ImGui::TextWrapped("%s %s", model.stale() ? "Your last edit cannot be computed:" : "This scenario cannot be computed:",
                     model.error().c_str());
  if (!model.offending().empty()) {
    ImGui::TextWrapped("The values behind it (marked red below):");
    for (const InputCell& c : model.offending())
      ImGui::BulletText("%s = %s", input_cell_name(state.doc.scenario, c).c_str(), attn::format_number(c.value, 6).c_str());
  }
  ImGui::PopStyleColor();
  if (model.stale())
    ImGui::TextWrapped(state.history.can_undo() ? "The grids show the last state that worked. Change the value, or Undo."
                                                 : "The grids show the last state that worked. Change the value to fix it.");
  ImGui::Separator();
}

}  // namespace

void note_drag_edit(AppState& state) {
  if (ImGui::IsItemDeactivatedAfterEdit()) actions::commit(state);
}

void draw_editor(ImVec2 pos, ImVec2 size, AppState& state, const TraceModel& model, WidgetProbe* probe) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  begin_tiled_window("Scenario", ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                        ImGuiWindowFlags_NoSavedSettings);
  const std::string& title = state.doc.title.empty() ? std::string("untitled scenario") : state.doc.title;
  ImGui::TextWrapped("%s%s", title.c_str(), state.dirty() ? "  (edited)" : "");
  draw_error_box(state, model);

  ImGui::BeginDisabled(!state.history.can_undo());
  if (ImGui::Button("Undo")) actions::undo(state);
  ImGui::EndDisabled();
  hover_tooltip("Undo the last edit (Ctrl+Z)");
  ImGui::SameLine();
  ImGui::BeginDisabled(!state.history.can_redo());
  if (ImGui::Button("Redo")) actions::redo(state);
  ImGui::EndDisabled();
  hover_tooltip("Redo (Ctrl+Y or Ctrl+Shift+Z)");
  ImGui::SameLine();
  if (ImGui::Button("Reset")) actions::reset(state);
  hover_tooltip("Go back to the scenario as it was opened (can be undone)");
  ImGui::SameLine();
  if (ImGui::Button("Randomise")) actions::randomise(state);
  probe_item(probe, "editor_randomise");
  hover_tooltip("Fill X and all weights with seeded random numbers (same seed, same numbers)");
  ImGui::SameLine();
  int seed = static_cast<int>(state.seed);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  if (ImGui::InputInt("seed", &seed, 0)) state.seed = static_cast<std::uint64_t>(std::max(0, seed));
  hover_tooltip("The seed Randomise uses");

  if (ImGui::CollapsingHeader("Shape", ImGuiTreeNodeFlags_DefaultOpen)) draw_shape(state, probe);
  const bool tokens_open = ImGui::CollapsingHeader("Tokens");
  probe_item(probe, "header:Tokens");
  if (tokens_open) {
    draw_tokens(state, Sequence::Queries, probe);
    if (state.doc.scenario.is_cross()) {
      ImGui::TextDisabled("context tokens");
      draw_tokens(state, Sequence::Context, probe);
    }
  }
  if (ImGui::CollapsingHeader("Options", ImGuiTreeNodeFlags_DefaultOpen)) draw_options(state);
  // A new failure opens the tables on the values behind it, once.
  const bool reveal = !model.offending().empty() && state.revealed_revision != state.revision;
  if (reveal) ImGui::SetNextItemOpen(true);
  if (ImGui::CollapsingHeader("Values", ImGuiTreeNodeFlags_DefaultOpen))
    draw_matrix_editors(state, EditorContext{probe, model.offending(), reveal});
  if (reveal) state.revealed_revision = state.revision;
  ImGui::End();
}

}  // namespace viz
