// Editor panel: shape, tokens and options. Discrete edits commit one undo
// step each; structural changes go through viz::edit so values are kept.
#include "panels/editor_panel.hpp"

#include <imgui_stdlib.h>

#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "gl/theme_style.hpp"
#include "widgets/typed_fields.hpp"
#include "attn/text/format_number.hpp"
#include "attn/decode/kv_cache_size.hpp"
#include "attn/compute/masks.hpp"
#include "model/document/scenario_edit.hpp"
#include "widgets/fitted_label.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {
namespace {

using edit::Sequence;

// A line of secondary information, wrapped to the panel.
void muted_wrapped(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// Key/value heads: - and + step to the next count that divides the heads,
// and a line says what the KV cache holds per token against MHA and MQA.
void draw_kv_heads(AppState& state, WidgetProbe* probe) {
  const attn::Scenario& s = state.doc.scenario;
  const int heads = edit::n_heads(s), kv = edit::n_kv_heads(s);
  shape_field(state, probe, "key/value heads", kv, 1, heads,
              "Grouped-query attention: groups of query heads share one K and V (Llama 3, Mistral).\n"
              "1 is multi-query attention; as many as the heads is ordinary multi-head attention",
              [kv, heads](attn::Scenario& x, int asked) {
                int to = asked;
                if (asked > kv)
                  while (to < heads && heads % to != 0) ++to;  // up to the next count that divides the heads
                edit::fit_kv_heads(x, to);
              });
  const attn::KvCacheSize size = attn::kv_cache_size(attn::dims_of(s));
  const std::string line = "KV cache: " + std::to_string(size.bytes) + " B per token and layer (every head its own: " +
                           std::to_string(size.mha_bytes) + " B, one shared: " + std::to_string(size.mqa_bytes) + " B)";
  muted_wrapped(line);
  hover_tooltip("What a model keeps for each generated token in each layer: K and V of every key/value head,\n"
                "d_k + d_v numbers each, at 2 bytes. Sharing heads divides it by the group size");
}

void draw_shape(AppState& state, WidgetProbe* probe) {
  const attn::Scenario& s = state.doc.scenario;
  shape_field(state, probe, "tokens", edit::n_tokens(s, Sequence::Queries), 1, 4096,
              "Number of query tokens (rows of X). Type a number and press Enter, or use - and +",
              [](attn::Scenario& x, int n) { edit::set_n_tokens(x, Sequence::Queries, n); });
  shape_field(state, probe, "d_model", edit::d_model(s), 1, 512, "Features per token (columns of X)",
              [](attn::Scenario& x, int d) { edit::set_d_model(x, d); });
  bool projected = !s.heads.empty();
  if (wrapped_checkbox("learned projections W_Q, W_K, W_V", &projected,
                       "Off: Q = K = V = X, the parameter-free attention of the first article", probe))
    actions::reshape(state, [&](attn::Scenario& x) { edit::set_projected(x, projected); });
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
    if (s.heads.size() > 1 && !s.is_cross()) draw_kv_heads(state, probe);
  }
  bool w_o = s.w_o.has_value();
  if (wrapped_checkbox("output projection W_O", &w_o, "Mixes the concatenated heads: output = concat · W_O", probe))
    actions::reshape(state, [&](attn::Scenario& x) { edit::set_w_o(x, w_o); });
  if (w_o)
    shape_field(state, probe, "d_out", edit::d_out(s), 1, 256, "Output width (columns of W_O)",
                [](attn::Scenario& x, int d) { edit::set_d_out(x, d); });
  bool cross = s.is_cross();
  if (wrapped_checkbox("cross-attention (keys from a context)", &cross,
                       "Queries come from X, keys and values from a separate context sequence C", probe))
    actions::reshape(state, [&](attn::Scenario& x) {
      if (cross && x.heads.empty()) edit::set_projected(x, true);
      edit::set_cross(x, cross);
    });
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
    muted_wrapped(std::to_string(n) + " tokens (too many to list; rename them in the file)");
    return;
  }
  // The name field gives way to its buttons in a narrow panel.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = ImGui::CalcTextSize("+").x + ImGui::CalcTextSize("remove").x + 4 * style.FramePadding.x + 2 * style.ItemSpacing.x;
  const float name_w = std::clamp(ImGui::GetContentRegionAvail().x - buttons, ImGui::GetFontSize() * 3, ImGui::GetFontSize() * 8);
  const std::vector<std::string>& labels = which == Sequence::Queries ? s.tokens : s.context_tokens;
  ImGui::PushID(which == Sequence::Queries ? "q" : "c");
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    const std::string name = i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)]
                                                                  : (which == Sequence::Queries ? "t" : "c") + std::to_string(i);
    ImGui::SetNextItemWidth(name_w);
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

// RoPE: on or off, and when on, its base, pairing, rotated share and first position.
void draw_rope(AppState& state, WidgetProbe* probe) {
  attn::Scenario& s = state.doc.scenario;
  bool on = s.rope.on;
  if (wrapped_checkbox("rotary positions (RoPE)", &on,
                       "Turn each query and key by its position after the projections (Llama, Mistral, Qwen):\n"
                       "scores then depend on how far apart two tokens are, not where they are",
                       probe))
    actions::apply_edit(state, [&](attn::Scenario& x) { x.rope.on = on; });
  if (!s.rope.on) return;
  ImGui::Indent();
  const float font = ImGui::GetFontSize();
  if (s.rope.frequencies.empty()) {
    const FittedLabel base = label_before("base", font * 6, font * 3, probe);
    ImGui::SetNextItemWidth(base.width);
    value_cell(state, "##base", &s.rope.base, 100.0f, "%.6g", 2, 1e7, "base");
    hover_tooltip("θ_i = base^(−2i/d): 10000 in most models, 500000 in Llama 3. Drag, or double-click to type");
    label_after(base, probe);
  } else {
    // A checkpoint's rope_scaling set each pair's angle; the base no longer decides them.
    ImGui::TextDisabled("θ from rope_scaling");
    const std::string why = "The model's rope_scaling set each of the " + std::to_string(s.rope.frequencies.size()) +
                            " pairs' angles per position, so no base decides them";
    hover_tooltip(why.c_str());
    same_line_if_room(ImGui::CalcTextSize("use a base").x + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::SmallButton("use a base"))
      actions::apply_edit(state, [](attn::Scenario& x) { x.rope.frequencies.clear(); });
    hover_tooltip("Go back to θ_i = base^(−2i/d), with the model's base, as models without rope_scaling have");
  }
  int pairing = static_cast<int>(s.rope.pairing);
  const FittedLabel pairs = label_before("pairs", font * 10, font * 6, probe);
  ImGui::SetNextItemWidth(pairs.width);
  if (ImGui::Combo("##pairs", &pairing, "half (i, i+d/2)\0interleaved (2i, 2i+1)\0"))
    actions::apply_edit(state, [&](attn::Scenario& x) { x.rope.pairing = static_cast<attn::RopePairing>(pairing); });
  hover_tooltip("Which dimensions turn together: Llama and GPT-NeoX pair i with i + d/2, GPT-J and the paper 2i with 2i+1");
  label_after(pairs, probe);
  const FittedLabel share = label_before("rotated share", font * 6, font * 3, probe);
  ImGui::SetNextItemWidth(share.width);
  value_cell(state, "##rotated share", &s.rope.fraction, 0.01f, "%.3g", 0.01, 1, "rotated share");
  hover_tooltip("Partial rotary (GPT-NeoX 0.25, Phi-2 0.4): only the first part of each head turns");
  label_after(share, probe);
  shape_field(state, nullptr, "first position", s.rope.offset, 0, 1000000,
              "The first token's position: a KV cache that continues a text starts here",
              [](attn::Scenario& x, int p) { x.rope.offset = p; });
  ImGui::Unindent();
}

// The window's width and sinks, or the stride, and how far information
// travels through several layers of it.
void draw_window_options(AppState& state) {
  const attn::Scenario& s = state.doc.scenario;
  if (s.mask != attn::MaskKind::SlidingWindow && s.mask != attn::MaskKind::Strided) return;
  ImGui::Indent();
  const int n_k = static_cast<int>(s.keys_source().rows());
  if (s.mask == attn::MaskKind::SlidingWindow) {
    shape_field(state, nullptr, "window", s.window, 1, 1 << 20, "Keys each query sees, itself included",
                [](attn::Scenario& x, int w) { x.window = w; });
    shape_field(state, nullptr, "sinks", s.sinks, 0, n_k, "The first tokens every query always sees (StreamingLLM's attention sinks)",
                [](attn::Scenario& x, int k) { x.sinks = k; });
  } else {
    shape_field(state, nullptr, "stride", s.stride, 1, 1 << 20, "Each query sees the last `stride` keys and every stride-th key before them",
                [](attn::Scenario& x, int l) { x.stride = l; });
  }
  std::string reach = "reach through layers:";
  for (int layers : {1, 2, 4, 32}) {
    const long long r = attn::window_reach(s, layers);
    reach += "  " + std::to_string(layers) + ": " + (r < 0 ? std::string("all") : std::to_string(r));
  }
  muted_wrapped(reach);
  hover_tooltip("How many positions back a token's information can reach after this many layers:\n"
                "each layer lets it hop one window further (Mistral 7B: 32 layers of 4096 keys)");
  ImGui::Unindent();
}

// Gemma 2's soft cap on the scaled scores: on or off, and its c. Switched on
// it starts at 2, not Gemma's 50: a toy scene's scores sit within a few
// units, where a cap of 50 changes nothing anyone could see.
void draw_soft_cap(AppState& state, WidgetProbe* probe) {
  attn::Scenario& s = state.doc.scenario;
  bool on = s.softcap > 0;
  if (wrapped_checkbox("soft-cap scores", &on,
                       "Gemma 2: each scaled score s becomes c·tanh(s / c), so none can pass ±c.\n"
                       "Small scores hardly change; large ones are squeezed towards ±c (Gemma 2 uses c = 50)",
                       probe))
    actions::apply_edit(state, [&](attn::Scenario& x) { x.softcap = on ? 2.0 : 0.0; });
  if (!(s.softcap > 0)) return;
  ImGui::Indent();
  const float font = ImGui::GetFontSize();
  const FittedLabel cap = label_before("cap c", font * 10, font * 4, probe);
  ImGui::SetNextItemWidth(cap.width);
  value_cell(state, "##cap c", &s.softcap, 0.01f, "%.3g", 0.1, 1000.0, "cap c");
  hover_tooltip("The cap: scores end within ±c. Drag, or double-click to type a value (0.1 to 1000)");
  label_after(cap, probe);
  ImGui::Unindent();
}

void draw_options(AppState& state, WidgetProbe* probe) {
  attn::Scenario& s = state.doc.scenario;
  const float font = ImGui::GetFontSize();
  auto combo = [&](const char* label, auto* value, const char* items, const char* help) {
    int v = static_cast<int>(*value);
    const FittedLabel at = label_before(label, font * 10, font * 6, probe);
    ImGui::SetNextItemWidth(at.width);
    ImGui::PushID(label);
    if (ImGui::Combo("##combo", &v, items)) {
      actions::apply_edit(state, [&](attn::Scenario&) { *value = static_cast<std::remove_pointer_t<decltype(value)>>(v); });
    }
    ImGui::PopID();
    hover_tooltip(help);
    label_after(at, probe);
    hover_tooltip(help);
  };
  combo("scaling", &s.scale, "÷ √d_k\0none\0÷ temperature τ\0", "What the scores are divided by before softmax");
  if (s.scale == attn::ScaleMode::Temperature) {
    // A double, so files and dumps keep what the user typed (no 1.30999994);
    // AlwaysClamp keeps a Ctrl+click-typed 0 or negative out of the scenario.
    // The same kind of field as every other number: drag, or double-click
    // to type (a slider jumped to wherever it was clicked).
    const FittedLabel tau = label_before("τ", font * 10, font * 4, probe);
    ImGui::SetNextItemWidth(tau.width);
    value_cell(state, "##τ", &s.temperature, 0.01f, "%.3g", 0.05, 20.0, "τ");
    hover_tooltip("Temperature: small τ sharpens the softmax, large τ flattens it.\nDrag, or double-click to type a value (0.05 to 20)");
    label_after(tau, probe);
  }
  draw_soft_cap(state, probe);
  combo("score", &s.score, "dot product q·k\0additive v·tanh(qW + kU)\0", "How a query and a key are compared");
  combo("positions", &s.positional, "none\0sinusoidal encoding\0ALiBi bias\0",
        "Position information: added to X (sinusoidal) or as a distance penalty on scores (ALiBi)");
  draw_rope(state, probe);
  combo("softmax over", &s.softmax_axis, "keys (rows)\0queries (columns)\0",
        "The axis softmax normalises: over keys (the usual choice) each row of weights sums to 1, so each query's weights sum to 1; over queries each column does");
  attn::MaskKind mask = s.mask;
  int m = static_cast<int>(mask);
  const FittedLabel mask_label = label_before("mask", font * 10, font * 6, probe);
  ImGui::SetNextItemWidth(mask_label.width);
  if (ImGui::Combo("##mask", &m, "none\0causal\0custom (painted)\0sliding window\0strided (sparse)\0")) {
    actions::apply_edit(state, [&](attn::Scenario& sc) { edit::set_mask_kind(sc, static_cast<attn::MaskKind>(m)); });
  }
  const char* mask_help = "Which (query, key) pairs are blocked. Causal: no query may peek at a later token.\n"
                          "Sliding window (Mistral): only the last few keys. Strided (Sparse Transformer): the last few and every stride-th";
  hover_tooltip(mask_help);
  label_after(mask_label, probe);
  hover_tooltip(mask_help);
  draw_window_options(state);
  wrapped_checkbox("paint mask with the mouse", &state.paint_mask,
                   "Click or drag on a score or weight grid to block/unblock cells (switches the mask to custom). Key: M", probe);
  combo("apply mask", &s.mask_mode, "before softmax (−∞)\0after softmax (0)\0",
        "Before softmax (correct): the blocked cells get −∞ and the rest renormalise.\nAfter softmax (a common mistake): blocked weights are zeroed, so rows sum to less than 1");
  const int n_k = static_cast<int>(s.keys_source().rows());
  // "key padding": the longer "padding (block whole keys)" was cut in a narrow panel.
  const bool padding_open = n_k <= 64 && ImGui::TreeNode("key padding");
  if (n_k <= 64) {
    probe_item(probe, "label:key padding");
    hover_tooltip("Block whole keys: no query gives a checked key any weight (padding in a batch)");
  }
  if (padding_open) {
    const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
    for (int j = 0; j < n_k; ++j) {
      bool blocked = j < static_cast<int>(s.key_padding.size()) && s.key_padding[static_cast<size_t>(j)];
      const std::string name = "key " + std::to_string(j);
      if (j > 0) same_line_if_room(box + ImGui::CalcTextSize(name.c_str()).x);
      ImGui::PushID(j);
      if (ImGui::Checkbox(name.c_str(), &blocked)) {
        actions::apply_edit(state, [&](attn::Scenario& sc) { edit::set_key_padding(sc, j, blocked); });
      }
      ImGui::PopID();
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
  if (probe) {  // where text wraps and past which ImGui cuts it: the labels' limit
    const ImVec2 at = ImGui::GetWindowPos(), lo = ImGui::GetWindowContentRegionMin(), hi = ImGui::GetWindowContentRegionMax();
    (*probe)["panel:editor_content"] = {at.x + lo.x, at.y + lo.y, at.x + hi.x, at.y + hi.y};
  }
  const std::string& title = state.doc.title.empty() ? std::string("untitled scenario") : state.doc.title;
  ImGui::TextWrapped("%s%s", title.c_str(), state.dirty() ? "  (edited)" : "");
  draw_error_box(state, model);

  ImGui::BeginDisabled(!state.history.can_undo());
  if (ImGui::Button("Undo")) actions::undo(state);
  ImGui::EndDisabled();
  hover_tooltip("Undo the last edit (Ctrl+Z)");
  const float pad = 2 * ImGui::GetStyle().FramePadding.x;
  same_line_if_room(ImGui::CalcTextSize("Redo").x + pad);
  ImGui::BeginDisabled(!state.history.can_redo());
  if (ImGui::Button("Redo")) actions::redo(state);
  ImGui::EndDisabled();
  hover_tooltip("Redo (Ctrl+Y or Ctrl+Shift+Z)");
  same_line_if_room(ImGui::CalcTextSize("Reset").x + pad);
  if (ImGui::Button("Reset")) actions::reset(state);
  hover_tooltip("Go back to the scenario as it was opened (can be undone)");
  same_line_if_room(ImGui::CalcTextSize("Randomise").x + pad);
  if (ImGui::Button("Randomise")) actions::randomise(state);
  probe_item(probe, "editor_randomise");
  hover_tooltip("Fill X and all weights with seeded random numbers (same seed, same numbers)");
  const float seed_w = ImGui::GetFontSize() * 4;
  same_line_if_room(seed_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("seed").x);
  int seed = static_cast<int>(state.seed);
  ImGui::SetNextItemWidth(seed_w);
  if (ImGui::InputInt("seed", &seed, 0)) state.seed = static_cast<std::uint64_t>(std::max(0, seed));
  probe_item(probe, "label:seed");  // the field and its label
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
  if (ImGui::CollapsingHeader("Options", ImGuiTreeNodeFlags_DefaultOpen)) draw_options(state, probe);
  // A new failure opens the tables on the values behind it, once.
  const bool reveal = !model.offending().empty() && state.revealed_revision != state.revision;
  if (reveal) ImGui::SetNextItemOpen(true);
  if (ImGui::CollapsingHeader("Values", ImGuiTreeNodeFlags_DefaultOpen))
    draw_matrix_editors(state, EditorContext{probe, model.offending(), reveal});
  if (reveal) state.revealed_revision = state.revision;
  ImGui::End();
}

}  // namespace viz
