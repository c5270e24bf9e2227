// The Model view from the command line (--model and its companions, once)
// and the headless wait for its background work. The view's frame itself is
// the session's (model/session/session_model.cpp).
#include "shell/app.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/hf/model_folder.hpp"

#include <cstdio>
#include <string>

namespace viz {

void App::apply_model_options() {
  if (model_options_applied_) return;
  model_options_applied_ = true;
  if (options_.model_dir.empty()) return;
  choose_model_folder(model_view_.ui, options_.model_dir);  // at once: the options below are for this folder
  train_ui_.open = false;
  ModelUi& ui = model_view_.ui;
  ui.text = options_.model_text;
  for (const auto& [layer, head] : options_.heads_off) ui.heads_off.push_back({layer, head});
  std::sort(ui.heads_off.begin(), ui.heads_off.end());
  ui.heads_off.erase(std::unique(ui.heads_off.begin(), ui.heads_off.end()), ui.heads_off.end());
  if (options_.ablate == "mean") ui.mode = attn::hf::AblationMode::Mean;
  if (options_.model_tab == "heads") ui.tab = ModelUi::Tab::Heads;
  if (options_.model_tab == "lens") ui.tab = ModelUi::Tab::Lens;
  if (options_.model_tab == "attribution") ui.tab = ModelUi::Tab::Attribution;
  if (!options_.model_corrupted.empty()) {
    ui.corrupted = options_.model_corrupted;
    ui.patch_answer = options_.patch_answer;
    ui.patch_wrong = options_.patch_wrong;
    ui.run_patching = true;
    if (options_.model_tab.empty()) ui.tab = ModelUi::Tab::Patching;
  }
  if (options_.model_tab == "patching") ui.tab = ModelUi::Tab::Patching;
  if (!options_.model_beside.empty()) {
    ui.beside = options_.model_beside;
    ui.run_quant = true;
    if (options_.model_tab.empty()) ui.tab = ModelUi::Tab::Quantization;
  }
  if (options_.model_tab == "quantization") ui.tab = ModelUi::Tab::Quantization;
  if (options_.patch_site == "positions") ui.patch_site = attn::hf::PatchSite::ResidualStream;
  if (options_.model_layer >= 0) ui.layer = options_.model_layer;
  if (options_.head_measure == "first") ui.measure = HeadMeasure::First;
  else if (options_.head_measure == "self") ui.measure = HeadMeasure::Self;
  else if (options_.head_measure == "entropy") ui.measure = HeadMeasure::Entropy;
  ui.sort_by_measure = options_.sort_heads;
  ui.show_after = options_.show_switched_off;
  ui.keep_first_tokens = options_.keep_first_tokens;
  if (options_.model_open_layer) {
    const attn::hf::HeadRef head{*options_.model_open_layer, options_.head.value_or(0)};
    if (!options_.model_beside.empty()) ui.open_quant = head;  // this model against the one beside, once compared
    else if (options_.model_corrupted.empty()) ui.open_in_pipeline = head;
    else ui.open_patched = head;  // clean against corrupted, once patching is done
  }
}

// Headless pictures and dumps show the model's results, not its progress:
// each job that lands may start the next (the folder, then the passes, then
// a head's scene), so the frames go on until nothing is left to start.
void App::wait_for_model() {
  for (int i = 0; i < 50 && model_view_.session.pending(model_view_.ui); ++i) {
    model_view_.session.wait_idle();
    frame(0);
    platform_.swap();
  }
}


// A headless run on a model that cannot be opened has nothing to show:
// scripts learn it from the exit code (2) and one line on stderr.
bool App::model_failed() {
  if (options_.model_dir.empty() || model_view_.session.checkpoint()) return false;
  std::string why = model_view_.session.error();
  if (why.empty()) why = "the model could not be opened";
  why = why.substr(0, why.find('\n'));
  std::fprintf(stderr, "attnviz: --model %s: %s\n", options_.model_dir.c_str(), why.c_str());
  return true;
}

}  // namespace viz
