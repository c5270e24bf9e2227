// Editor panel: shape, tokens and options. Discrete edits commit one undo
// step each; structural changes go through viz::edit so values are kept.
#include "editor_panel.hpp"

#include <imgui_stdlib.h>

#include "app_actions.hpp"
#include "viz/scenario_edit.hpp"

namespace viz {
namespace {

using edit::Sequence;

// An integer field with +/- buttons; returns true when the user changed it.
// A typed value out of range is limited and said in the status panel: the
// field itself keeps showing the typed text until it loses focus.
bool int_field(AppState& state, const char* label, int* v, int lo, int hi, const char* help) {
  const int before = *v;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::InputInt(label, v, 1, 4);
  editor_tooltip(help);
  if (*v > hi || *v < lo) {
    actions::notify(state, std::string(label) + (*v > hi ? " limited to " + std::to_string(hi) : " is at least " + std::to_string(lo)) +
                               " (asked for " + std::to_string(*v) + ")");
    *v = std::clamp(*v, lo, hi);
  }
  return *v != before;
}

// A new shape moves and resizes grids: fit the view to it again.
void reshaped(AppState& state) {
  state.view.fit_pending = true;
  actions::changed(state);
}

void draw_shape(AppState& state) {
  attn::Scenario& s = state.doc.scenario;
  int n = edit::n_tokens(s, Sequence::Queries);
  if (int_field(state, "tokens", &n, 1, 4096, "Number of query tokens (rows of X); new rows get seeded values")) {
    edit::set_n_tokens(s, Sequence::Queries, n);
    reshaped(state);
  }
  int d = edit::d_model(s);
  if (int_field(state, "d_model", &d, 1, 512, "Features per token (columns of X)")) {
    edit::set_d_model(s, d);
    reshaped(state);
  }
  bool projected = !s.heads.empty();
  if (ImGui::Checkbox("learned projections W_Q, W_K, W_V", &projected)) {
    edit::set_projected(s, projected);
    reshaped(state);
  }
  editor_tooltip("Off: Q = K = V = X, the parameter-free attention of the first article");
  if (projected) {
    int dk = edit::d_k(s), dv = edit::d_v(s), heads = edit::n_heads(s);
    if (int_field(state, "d_k", &dk, 1, 256, "Width of queries and keys (columns of W_Q and W_K)")) {
      edit::set_d_k(s, dk);
      reshaped(state);
    }
    if (int_field(state, "d_v", &dv, 1, 256, "Width of values (columns of W_V)")) {
      edit::set_d_v(s, dv);
      reshaped(state);
    }
    if (int_field(state, "heads", &heads, 1, 16, "Number of attention heads, each with its own W_Q, W_K, W_V")) {
      edit::set_n_heads(s, heads);
      if (state.view.head >= heads) state.view.head = -1;
      reshaped(state);
    }
  }
  bool w_o = s.w_o.has_value();
  if (ImGui::Checkbox("output projection W_O", &w_o)) {
    edit::set_w_o(s, w_o);
    reshaped(state);
  }
  editor_tooltip("Mixes the concatenated heads: output = concat · W_O");
  if (w_o) {
    int d_out = edit::d_out(s);
    if (int_field(state, "d_out", &d_out, 1, 256, "Output width (columns of W_O)")) {
      edit::set_d_out(s, d_out);
      reshaped(state);
    }
  }
  bool cross = s.is_cross();
  if (ImGui::Checkbox("cross-attention (keys from a context)", &cross)) {
    if (cross && s.heads.empty()) edit::set_projected(s, true);
    edit::set_cross(s, cross);
    reshaped(state);
  }
  editor_tooltip("Queries come from X, keys and values from a separate context sequence C");
  if (cross) {
    int nk = edit::n_tokens(s, Sequence::Context);
    if (int_field(state, "context tokens", &nk, 1, 4096, "Rows of the context C (the keys)")) {
      edit::set_n_tokens(s, Sequence::Context, nk);
      reshaped(state);
    }
    int dc = s.context ? static_cast<int>(s.context->cols()) : 1;
    if (int_field(state, "d_context", &dc, 1, 512, "Features per context token")) {
      edit::set_d_context(s, dc);
      reshaped(state);
    }
  }
}

void draw_tokens(AppState& state, Sequence which) {
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
    std::string name = i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)]
                                                            : (which == Sequence::Queries ? "t" : "c") + std::to_string(i);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::InputText("##name", &name)) {
      edit::rename_token(s, which, i, name);
      actions::changed(state, false);
      state.edit_in_progress = true;
    }
    if (ImGui::IsItemDeactivatedAfterEdit()) actions::commit(state);
    ImGui::SameLine();
    if (ImGui::SmallButton("+")) {
      edit::insert_token(s, which, i + 1, "");
      actions::changed(state);
    }
    editor_tooltip("Insert a token after this one");
    ImGui::SameLine();
    if (n > 1 && ImGui::SmallButton("remove")) {
      edit::remove_token(s, which, i);
      actions::changed(state);
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
      *value = static_cast<std::remove_pointer_t<decltype(value)>>(v);
      actions::changed(state);
    }
    editor_tooltip(help);
  };
  combo("scaling", &s.scale, "÷ √d_k\0none\0÷ temperature τ\0", "What the scores are divided by before softmax");
  if (s.scale == attn::ScaleMode::Temperature) {
    // A double, so files and dumps keep what the user typed (no 1.30999994);
    // AlwaysClamp keeps a Ctrl+click-typed 0 or negative out of the scenario.
    const double lo = 0.05, hi = 20.0;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::SliderScalar("τ", ImGuiDataType_Double, &s.temperature, &lo, &hi, "%.2f",
                            ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
      actions::changed(state, false);
      state.edit_in_progress = true;
    }
    note_drag_edit(state);
    editor_tooltip("Temperature: small τ sharpens the softmax, large τ flattens it.\nCtrl+click to type a value (0.05 to 20)");
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
    edit::set_mask_kind(s, static_cast<attn::MaskKind>(m));
    actions::changed(state);
  }
  editor_tooltip("Which (query, key) pairs are blocked. Causal: no query may peek at a later token");
  ImGui::Checkbox("paint mask with the mouse", &state.paint_mask);
  editor_tooltip("Click or drag on a score or weight grid to block/unblock cells (switches the mask to custom). Key: M");
  combo("apply mask", &s.mask_mode, "before softmax (−∞)\0after softmax (0)\0",
        "Before softmax (correct): the blocked cells get −∞ and the rest renormalise.\nAfter softmax (a common mistake): blocked weights are zeroed, so rows sum to less than 1");
  const int n_k = static_cast<int>(s.keys_source().rows());
  if (n_k <= 64 && ImGui::TreeNode("padding (block whole keys)")) {
    for (int j = 0; j < n_k; ++j) {
      bool blocked = j < static_cast<int>(s.key_padding.size()) && s.key_padding[static_cast<size_t>(j)];
      ImGui::PushID(j);
      if (ImGui::Checkbox(("key " + std::to_string(j)).c_str(), &blocked)) {
        edit::set_key_padding(s, j, blocked);
        actions::changed(state);
      }
      ImGui::PopID();
      if (j % 4 != 3 && j + 1 < n_k) ImGui::SameLine();
    }
    ImGui::TreePop();
  }
}

}  // namespace

void editor_tooltip(const char* text) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text);
}

void note_drag_edit(AppState& state) {
  if (ImGui::IsItemDeactivatedAfterEdit()) actions::commit(state);
}

void draw_editor(ImVec2 pos, ImVec2 size, AppState& state, WidgetProbe* probe) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Scenario", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                        ImGuiWindowFlags_NoSavedSettings);
  const std::string& title = state.doc.title.empty() ? std::string("untitled scenario") : state.doc.title;
  ImGui::TextWrapped("%s%s", title.c_str(), state.dirty() ? "  (edited)" : "");
  if (!state.doc.description.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", state.doc.description.c_str());

  ImGui::BeginDisabled(!state.history.can_undo());
  if (ImGui::Button("Undo")) actions::undo(state);
  ImGui::EndDisabled();
  editor_tooltip("Undo the last edit (Ctrl+Z)");
  ImGui::SameLine();
  ImGui::BeginDisabled(!state.history.can_redo());
  if (ImGui::Button("Redo")) actions::redo(state);
  ImGui::EndDisabled();
  editor_tooltip("Redo (Ctrl+Y or Ctrl+Shift+Z)");
  ImGui::SameLine();
  if (ImGui::Button("Reset")) actions::reset(state);
  editor_tooltip("Go back to the scenario as it was opened (can be undone)");
  ImGui::SameLine();
  if (ImGui::Button("Randomise")) actions::randomise(state);
  editor_tooltip("Fill X and all weights with seeded random numbers (same seed, same numbers)");
  ImGui::SameLine();
  int seed = static_cast<int>(state.seed);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  if (ImGui::InputInt("seed", &seed, 0)) state.seed = static_cast<std::uint64_t>(std::max(0, seed));
  editor_tooltip("The seed Randomise uses");

  if (ImGui::CollapsingHeader("Shape", ImGuiTreeNodeFlags_DefaultOpen)) draw_shape(state);
  if (ImGui::CollapsingHeader("Tokens")) {
    draw_tokens(state, Sequence::Queries);
    if (state.doc.scenario.is_cross()) {
      ImGui::TextDisabled("context tokens");
      draw_tokens(state, Sequence::Context);
    }
  }
  if (ImGui::CollapsingHeader("Options", ImGuiTreeNodeFlags_DefaultOpen)) draw_options(state);
  if (ImGui::CollapsingHeader("Values", ImGuiTreeNodeFlags_DefaultOpen)) draw_matrix_editors(state, probe);
  ImGui::End();
}

}  // namespace viz
