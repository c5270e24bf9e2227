// The Model view's frame and its left column (model_view.hpp).
#include "hf/model_view.hpp"

#include <algorithm>
#include <iterator>
#include <utility>
#include <string>

#include <imgui_stdlib.h>

#include "gl/theme_style.hpp"
#include "train/train_view.hpp"
#include "model/document/app_actions.hpp"
#include "model/hf/model_folder.hpp"
#include "widgets/long_text.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {

namespace {

ImVec4 colour(Rgba c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1); }

void folder_controls(const ModelSession& session, ModelUi& ui, AppState& state, const ThemePalette& pal, WidgetProbe* probe) {
  ImGui::TextUnformatted("Model: a folder or a .gguf file");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 4);
  const bool entered = ImGui::InputText("##model_folder", &ui.folder_draft, ImGuiInputTextFlags_EnterReturnsTrue);
  probe_item(probe, "model_folder");
  ImGui::SameLine();
  if (ImGui::Button("Open") || entered) {
    if (const std::optional<std::string> folder = model_folder_of(ui.folder_draft)) choose_model_folder(ui, *folder);
    else state.message = "\"" + ui.folder_draft + "\" is neither a model folder (with config.json) nor a GGUF file.";
  }
  if (ImGui::Button("Choose a config.json or .gguf...")) actions::ask_open(state);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Pick the config.json inside a model folder (with model.safetensors beside it), or a GGUF file "
                      "(llama.cpp's, as Ollama and LM Studio keep them).");
  if (session.checkpoint()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour(pal.heading));
    wrapped_text(session.family_line());
    ImGui::PopStyleColor();
    probe_item(probe, "model_family");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(session.precision_line());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", session.precision().detail().c_str());
    probe_item(probe, "model_precision");
  }
  if (!session.notice().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour(pal.heading));
    wrapped_text(session.notice());
    ImGui::PopStyleColor();
    probe_item(probe, "model_notice");
  }
}

// The session's error, in both panes alike (`where` tells their probes
// apart); a text too long for the model offers to keep its first tokens.
void model_problem(const ModelSession& session, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe, const std::string& where) {
  if (session.error().empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, colour(pal.error));
  wrapped_text(session.error());
  ImGui::PopStyleColor();
  probe_item(probe, "model_error" + where);
  if (!session.too_long() || !session.checkpoint()) return;
  const std::string keep = "Keep only the first " + std::to_string(session.checkpoint()->config().max_positions) + " tokens";
  if (ImGui::Button((keep + "##keep_first" + where).c_str())) ui.keep_first_tokens = true;
  probe_item(probe, "model_keep_first" + where);
}

void text_controls(const ModelSession& session, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe) {
  ImGui::TextUnformatted("Text");
  ImGui::InputTextMultiline("##model_text", &ui.text, {ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight() * 4});
  probe_item(probe, "model_text");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every edit runs the model again in the background.");
  if (session.computing()) {
    const TaskProgress p = session.progress();
    ImGui::ProgressBar(static_cast<float>(p.fraction()), {ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 5, 0},
                       ("Running the model: " + p.text).c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ui.cancel = true;
    probe_item(probe, "model_cancel");
  } else if (session.cancelled()) {
    ImGui::TextUnformatted("Stopped.");
    ImGui::SameLine();
    if (ImGui::Button("Run again")) ui.rerun = true;
  }
  model_problem(session, ui, pal, probe, "");
  if (!session.note().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(session.note());
    ImGui::PopStyleColor();
    probe_item(probe, "model_note");
  }
  // The tokens as the model reads them; hovering one shows what it predicts next.
  draw_token_strip(session, ui, probe);
}

void switch_off_controls(ModelUi& ui) {
  ImGui::TextUnformatted("Heads switched off");
  std::string list;
  for (const attn::hf::HeadRef& h : ui.heads_off)
    list += (list.empty() ? "" : ", ") + std::string("L") + std::to_string(h.layer) + " H" + std::to_string(h.head);
  wrapped_text(list.empty() ? "none (right-click a head in the overview)" : list);
  int mode = ui.mode == attn::hf::AblationMode::Mean ? 1 : 0;
  ImGui::RadioButton("zero", &mode, 0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A switched-off head's output becomes 0.");
  ImGui::SameLine();
  ImGui::RadioButton("mean", &mode, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A switched-off head's output becomes its mean over the text.");
  ui.mode = mode ? attn::hf::AblationMode::Mean : attn::hf::AblationMode::Zero;
  ImGui::SameLine();
  ImGui::BeginDisabled(ui.heads_off.empty());
  if (ImGui::Button("Clear")) ui.heads_off.clear();
  ImGui::EndDisabled();
}

}  // namespace

bool pass_job_waiting(const char* what, const PassJobState& job, bool has_result, JobRequest& request,
                      const ThemePalette& pal, WidgetProbe* probe) {
  if (!job.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.error));
    wrapped_text(std::string(what) + " failed: " + job.error);
    ImGui::PopStyleColor();
    return true;
  }
  if (has_result) return false;
  if (job.cancelled) {
    wrapped_text(std::string("Stopped before ") + what + " was done.");
    if (ImGui::Button("Compute it")) request = JobRequest::Retry;
    probe_item(probe, "job_retry");
    return true;
  }
  wrapped_text(std::string("Computing ") + what + ": " + std::to_string(static_cast<int>(100 * job.progress.fraction())) +
               "%…");
  if (job.running) {
    if (ImGui::Button("Cancel##job")) request = JobRequest::Cancel;
    probe_item(probe, "job_cancel");
  }
  return true;
}

bool job_progress_row(const TaskProgress& progress, const std::string& what, const char* cancel_id, WidgetProbe* probe,
                      const char* cancel_probe) {
  ImGui::SameLine();
  ImGui::ProgressBar(static_cast<float>(progress.fraction()), ImVec2(ImGui::GetFontSize() * 12, 0), what.c_str());
  ImGui::SameLine();
  const bool pressed = ImGui::Button(cancel_id);
  probe_item(probe, cancel_probe);
  return pressed;
}

void job_error_line(const std::string& prefix, const std::string& error, const ThemePalette& pal) {
  if (error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.error));
  wrapped_text(prefix + error);
  ImGui::PopStyleColor();
}

float radio_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

std::string shown_token(const std::string& token) {
  std::string out;
  for (char c : token) out += c == ' ' ? std::string("\xC2\xB7") : std::string(1, c);
  return out;
}

bool head_is_off(const ModelUi& ui, int layer, int head) {
  return std::find(ui.heads_off.begin(), ui.heads_off.end(), attn::hf::HeadRef{layer, head}) != ui.heads_off.end();
}

void toggle_head(ModelUi& ui, int layer, int head) {
  const attn::hf::HeadRef ref{layer, head};
  const auto it = std::find(ui.heads_off.begin(), ui.heads_off.end(), ref);
  if (it != ui.heads_off.end()) ui.heads_off.erase(it);
  else ui.heads_off.insert(std::upper_bound(ui.heads_off.begin(), ui.heads_off.end(), ref), ref);
}

void draw_model_view(ImVec2 pos, ImVec2 size, const ModelViewData& d, AppState& state, WidgetProbe* probe) {
  const ThemePalette& pal = palette(state.view.colour.theme);
  ModelUi& ui = d.ui;
  begin_view_window("##model", pos, size);
  const float left_w = std::clamp(size.x * 0.32f, ImGui::GetFontSize() * 19, ImGui::GetFontSize() * 30);
  ImGui::BeginChild("##model_controls", {left_w, 0}, false);
  if (view_title(d.fonts, "A real model's heads", left_w)) ui.open = false;
  probe_item(probe, "model_close");
  folder_controls(d.session, ui, state, pal, probe);
  ImGui::Separator();
  text_controls(d.session, ui, pal, probe);
  ImGui::Separator();
  draw_model_predictions(d.session, ui, pal, probe);
  ImGui::Separator();
  switch_off_controls(ui);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##model_heads", {0, 0}, false);
  // The tabs, on as many lines as the width needs (presenting at 1024x768
  // put the last two past the window's edge).
  const std::pair<const char*, ModelUi::Tab> tabs[] = {{"Overview", ModelUi::Tab::Overview},
                                                       {"Head view", ModelUi::Tab::Heads},
                                                       {"Logit lens", ModelUi::Tab::Lens},
                                                       {"Attribution", ModelUi::Tab::Attribution},
                                                       {"Patching", ModelUi::Tab::Patching},
                                                       {"Quantization", ModelUi::Tab::Quantization}};
  const char* const probes[] = {"model_tab_overview", "model_tab_heads", "model_tab_lens", "model_tab_attribution",
                                "model_tab_patching", "model_tab_quantization"};
  for (std::size_t i = 0; i < std::size(tabs); ++i) {
    if (i > 0) same_line_if_room(radio_width(tabs[i].first));
    if (ImGui::RadioButton(tabs[i].first, ui.tab == tabs[i].second)) ui.tab = tabs[i].second;
    probe_item(probe, probes[i]);
  }
  if (!d.session.before() && !d.session.error().empty()) {
    model_problem(d.session, ui, pal, probe, "_right");
  } else if (!d.session.before()) {
    wrapped_text(d.session.checkpoint() ? "Type a text on the left: the model runs on it and every head shows here."
                                        : "Open a model: a Hugging Face folder (config.json and model.safetensors) or a GGUF file.");
  } else if (ui.tab == ModelUi::Tab::Overview) {
    draw_model_overview(d, ui, pal, probe);
  } else if (ui.tab == ModelUi::Tab::Lens) {
    draw_model_lens(d, state.view.colour.probability_map, pal, probe);
  } else if (ui.tab == ModelUi::Tab::Attribution) {
    draw_model_attribution(d, state.view.colour.signed_map, pal, probe);
  } else if (ui.tab == ModelUi::Tab::Patching) {
    draw_model_patching(d, state.view.colour.signed_map, pal, probe);
  } else if (ui.tab == ModelUi::Tab::Quantization) {
    draw_model_quant(d, state.view.colour.signed_map, pal, probe);
  } else {
    draw_head_view(d, ui, pal, probe);
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
