// The Model view's jobs and the results the view reads (model_session.hpp).
#include "model/hf/model_session.hpp"

#include <algorithm>
#include <map>

#include "attn/explain/explain.hpp"
#include "attn/hf/forward/layer_scene.hpp"
#include "model/hf/model_folder.hpp"

namespace model {

namespace {

std::string heads_off_key(const ModelUi& ui) {
  std::string key = ui.mode == attn::hf::AblationMode::Mean ? "mean" : "zero";
  for (const attn::hf::HeadRef& h : ui.heads_off) key += " " + std::to_string(h.layer) + "." + std::to_string(h.head);
  return key;
}

// A tab's Cancel or "Compute it" to its job, once.
template <class Job>
void carry_request(Job& job, JobRequest& request) {
  if (request == JobRequest::Cancel) job.cancel();
  if (request == JobRequest::Retry) job.retry();
  request = JobRequest::None;
}

}  // namespace

ModelSession::ModelSession()
    : load_([](const std::string& dir, TaskContext<Loaded>&) {
                return Loaded{attn::hf::Checkpoint::open(dir), ModelTokens::load(dir)};
              },
              TaskPolicy::Replace),
      before_runner_([](const AnalysisInput& in, TaskContext<ModelAnalysis>& c) { return analyse(in, c); }, TaskPolicy::Replace),
      after_runner_([](const AnalysisInput& in, TaskContext<ModelAnalysis>& c) { return analyse(in, c); }, TaskPolicy::Replace),
      predict_(
          [](const PredictInput& in, TaskContext<Predicted>&) {
            return Predicted{in.forward.get(), in.position, model::predictions_at(*in.checkpoint, *in.tokens, *in.forward, in.position)};
          },
          TaskPolicy::Queue),
      scene_([](const SceneInput& in, TaskContext<Scene>& control) { return open_scene(in, control); }, TaskPolicy::Replace) {}

void ModelSession::set_wake(const std::function<void()>& wake) {
  load_.set_wake(wake);
  before_runner_.set_wake(wake);
  after_runner_.set_wake(wake);
  predict_.set_wake(wake);
  scene_.set_wake(wake);
  precision_.set_wake(wake);
  lens_.set_wake(wake);
  attribution_.set_wake(wake);
  patching_.set_wake(wake);
  quant_.set_wake(wake);
  sources_.set_wake(wake);
}

void ModelSession::forget_model() {
  for (auto* r : {&before_runner_, &after_runner_}) {
    r->cancel();
    r->discard();
  }
  predict_.cancel();
  predict_.discard();
  scene_.cancel();
  scene_.discard();
  precision_.reset();
  lens_.forget();
  attribution_.forget();
  patching_.forget();
  quant_.forget();
  sources_.forget();
  checkpoint_.reset();
  family_line_.clear();
  tokens_.reset();
  error_.clear();
  text_asked_ = false;
  forget_text();
  ids_.clear();
  labels_.clear();
  before_.reset();
  after_.reset();
  atlas_ = atlas_after_ = HeadAtlas{};
  ++atlas_generation_;
}

// What belongs to one text's passes: gone with a new text or model.
void ModelSession::forget_text() {
  cancelled_ = false;
  too_long_ = false;
  note_.clear();
  after_key_.clear();
  hovered_.clear();
  asked_.clear();
}

// The text's ids, cut to the model's positions when the user asked for
// that; a text too long otherwise runs nothing and says so (error()).
void ModelSession::tokenize(const ModelUi& ui) {
  text_ = ui.text;
  keep_first_ = ui.keep_first_tokens;
  text_asked_ = true;
  forget_text();
  try {
    ids_ = tokens_->encode(text_);
    error_.clear();
    const attn::hf::ModelConfig& c = checkpoint_->config();
    const std::size_t positions = static_cast<std::size_t>(std::max(c.max_positions, 0));
    if (positions > 0 && ids_.size() > positions) {
      const std::string counts = std::to_string(positions) + " of " + std::to_string(ids_.size()) + " tokens";
      if (keep_first_) {
        note_ = "Runs on the first " + counts + ": the model has positions for " + std::to_string(positions) + ".";
        ids_.resize(positions);
      } else {
        too_long_ = true;
        error_ = std::to_string(ids_.size()) + " tokens, but this " + c.family_name() + " model has positions for " +
                 std::to_string(positions) + ". Shorten the text, or keep only its first " + std::to_string(positions) +
                 " tokens.";
        ids_.clear();
      }
    }
    labels_.clear();
    for (int id : ids_) labels_.push_back(tokens_->text(id));
    if (too_long_) {  // nothing to show but the error, on both sides of the view
      before_runner_.cancel();
      before_.reset();
      after_.reset();
      atlas_ = atlas_after_ = HeadAtlas{};
      ++atlas_generation_;
    } else {
      precision_.reset();  // the old text's float64 check would only slow the new pass
      before_runner_.submit({checkpoint_, tokens_, ids_, {}, attn::hf::AblationMode::Zero, nullptr, &counts_});
    }
  } catch (const std::exception& e) {
    before_runner_.cancel();
    ids_.clear();
    labels_.clear();
    error_ = e.what();
  }
}

// A new text replaces the running pass (TaskPolicy::Replace); heads
// switched off start a second pass on the same ids.
void ModelSession::start_passes(ModelUi& ui) {
  if (ui.cancel) {
    ui.cancel = false;
    before_runner_.cancel();
    after_runner_.cancel();
    cancelled_ = true;
  }
  if (ui.rerun) {
    ui.rerun = false;
    text_asked_ = false;
    after_key_.clear();
  }
  if (!text_asked_ || ui.text != text_ || ui.keep_first_tokens != keep_first_) tokenize(ui);
  const std::string key = ids_.empty() || ui.heads_off.empty() ? "" : heads_off_key(ui);
  if (key != after_key_) {
    after_key_ = key;
    if (key.empty()) {
      after_runner_.cancel();
      after_runner_.discard();
      after_.reset();
      atlas_after_ = HeadAtlas{};
      ++atlas_generation_;
    } else {
      // With the pass of every head on done for these ids, this one resumes
      // from it at the first switched-off layer (model_analysis.cpp).
      const bool shared = before_ && before_->ids == ids_;
      after_runner_.submit({checkpoint_, tokens_, ids_, ui.heads_off, ui.mode, shared ? before_ : nullptr, &counts_});
    }
  }
}

void ModelSession::take_outcomes(ColourmapId map) {
  if (auto o = before_runner_.take()) {
    if (o->done() && o->result) {
      before_ = std::make_shared<const ModelAnalysis>(std::move(*o->result));
      precision_.start(checkpoint_, before_->forward, {}, attn::hf::AblationMode::Zero, &counts_);
      atlas_ = build_atlas(before_->thumbnails, colourmap(map));
      ++atlas_generation_;
      hovered_.clear();
      asked_.clear();
    } else if (o->failed()) {
      error_ = o->error;
    }
  }
  if (auto o = after_runner_.take()) {
    if (o->done() && o->result) {
      after_ = std::make_shared<const ModelAnalysis>(std::move(*o->result));
      atlas_after_ = build_atlas(after_->thumbnails, colourmap(map));
      ++atlas_generation_;
    } else if (o->failed()) {
      error_ = o->error;
    }
  }
  precision_.take();
  while (auto o = predict_.take())
    if (o->done() && o->result && before_ && o->result->forward == before_->forward.get())
      hovered_[o->result->position] = std::move(o->result->predictions);
  if (map != atlas_map_) {  // another colourmap: the same thumbnails, coloured again
    atlas_map_ = map;
    if (before_) atlas_ = build_atlas(before_->thumbnails, colourmap(map));
    if (after_) atlas_after_ = build_atlas(after_->thumbnails, colourmap(map));
    ++atlas_generation_;
  }
}

// A weights file changed on disk under the open model (another program
// rewrote or cut it): attn_hf refuses any pass that read it (a cut mapping
// reads zeros instead of killing the app), so the folder is opened again and
// the text rerun, and a line says why. A stat per file per frame.
void ModelSession::reopen_if_changed() {
  if (!checkpoint_ || load_.busy()) return;
  const std::string why = checkpoint_->changed();
  if (why.empty()) return;
  const std::string folder = folder_;
  forget_model();
  folder_ = folder;
  load_.submit(folder_);
  notice_ = why + ": opened again from disk.";
}

std::optional<HeadToShow> ModelSession::update(ModelUi& ui, ColourmapId map) {
  reopen_if_changed();
  if (ui.folder != folder_) {
    notice_.clear();
    forget_model();
    folder_ = ui.folder;
    if (!folder_.empty()) load_.submit(folder_);
  }
  if (auto o = load_.take()) {
    if (o->done() && o->result) {
      checkpoint_ = o->result->checkpoint;
      family_line_ = describe_family(*checkpoint_);
      tokens_ = o->result->tokens;
    } else if (o->failed()) {
      error_ = "Cannot open the model: " + o->error;
    }
  }
  if (checkpoint_) start_passes(ui);
  take_outcomes(map);
  carry_request(lens_, ui.lens_request);
  carry_request(attribution_, ui.attribution_request);
  lens_.update(ui.tab == ModelUi::Tab::Lens, checkpoint_, tokens_, before_.get());
  attribution_.update(ui.tab == ModelUi::Tab::Attribution, checkpoint_, tokens_, before_.get());
  patching_.update();
  quant_.update();
  sources_.update();
  if (std::exchange(ui.cancel_patching, false)) patching_.cancel();
  if (std::exchange(ui.cancel_quant, false)) quant_.cancel();
  if (ui.run_quant && checkpoint_ && !ids_.empty()) {
    ui.run_quant = false;
    quant_.start({checkpoint_, ids_, ui.beside});
  } else if (ui.run_quant && !load_.busy() && !error_.empty()) {
    ui.run_quant = false;
  }
  // A run asked for waits for the text's ids (the command line asks before the folder is open).
  if (ui.run_patching && checkpoint_ && tokens_ && !ids_.empty()) {
    ui.run_patching = false;
    patching_.start({checkpoint_, tokens_, ids_, ui.corrupted, ui.patch_answer, ui.patch_wrong, ui.patch_site});
  } else if (ui.run_patching && !load_.busy() && !error_.empty()) {
    ui.run_patching = false;  // no model or no text: the error says why
  }
  // The predictions at the hovered token, asked for once per pass.
  const int n = static_cast<int>(ids_.size());
  if (before_ && checkpoint_->config().causal && ui.hovered_position >= 0 && ui.hovered_position < n &&
      !asked_[ui.hovered_position] && ui.hovered_position != n - 1) {
    asked_[ui.hovered_position] = true;
    predict_.submit({checkpoint_, tokens_, before_->forward, ui.hovered_position});
  }
  // A head to open waits for the ids (the command line asks before the folder is open).
  if (ui.open_in_pipeline && checkpoint_ && !ids_.empty()) {
    scene_.submit({checkpoint_, model_folder_name(folder_), ids_, labels_, *std::exchange(ui.open_in_pipeline, std::nullopt),
                   ui.heads_off, ui.mode, float64_of_text(), &counts_, {}, {}, {}, nullptr, "", ""});
  } else if (ui.open_in_pipeline && !load_.busy() && !error_.empty()) {
    ui.open_in_pipeline.reset();  // no model or no tokens: the error says why
  }
  // A head of the patching map: its layer on the clean text against the
  // corrupted one, once the map is there (dropped if it fails).
  if (ui.open_patched && !ui.run_patching && !patching_.pending() && !patching_.result(ids_)) ui.open_patched.reset();
  if (const PatchMap* p = patching_.result(ids_); ui.open_patched && checkpoint_ && p)
    scene_.submit({checkpoint_, model_folder_name(folder_), ids_, labels_, *std::exchange(ui.open_patched, std::nullopt),
                   {}, ui.mode, float64_of_text(), &counts_, p->corrupted, p->corrupted_labels,
                   "corrupted: " + p->corrupted_text, nullptr, "", ""});
  // A head of the quantization map: its layer in this model against the one beside it.
  if (ui.open_quant && !ui.run_quant && !quant_.pending() && !quant_.result(ids_)) ui.open_quant.reset();
  if (const QuantMap* q = quant_.result(ids_); ui.open_quant && checkpoint_ && q) {
    SceneInput in{checkpoint_, model_folder_name(folder_), ids_, labels_, *std::exchange(ui.open_quant, std::nullopt),
                  {}, ui.mode, float64_of_text(), &counts_, {}, {}, {}, q->beside_checkpoint, "", ""};
    in.own_label = model_folder_name(folder_) + " (" + q->types + ")";
    in.beside_label = model_folder_name(q->beside) + " (" + q->beside_types + ")";
    scene_.submit(std::move(in));
  }
  if (auto o = scene_.take()) {
    if (o->done() && o->result) {
      HeadToShow h;
      h.scene = o->result->file;
      h.label = o->result->label;
      h.head = o->result->head;
      h.switched_off = o->result->switched_off;
      h.off_label = o->result->off_label;
      h.on_label = o->result->on_label;
      h.layer = o->result->layer;
      h.ids = o->result->ids;
      return h;
    }
    if (o->failed()) error_ = "Cannot open the head: " + o->error;
  }
  return std::nullopt;
}

std::shared_ptr<const attn::hf::ForwardResult<double>> ModelSession::float64_of_text() const {
  const auto& pass = precision_.float64_pass();
  return pass && pass->ids == ids_ ? pass : nullptr;
}

bool ModelSession::pending(const ModelUi& ui) const {
  if (load_.busy() || before_runner_.busy() || after_runner_.busy() || predict_.busy() || scene_.busy() ||
      precision_.pending() || lens_.pending() || attribution_.pending() || patching_.pending() || quant_.pending() ||
      sources_.pending())
    return true;
  if (load_.has_outcome() || before_runner_.has_outcome() || after_runner_.has_outcome() || predict_.has_outcome() ||
      scene_.has_outcome())
    return true;
  if (ui.folder != folder_) return true;
  if (ui.open_in_pipeline && (checkpoint_ || load_.busy())) return true;
  if (ui.run_patching || ui.cancel_patching || ui.open_patched) return true;
  if (ui.run_quant || ui.cancel_quant || ui.open_quant) return true;
  if (ui.lens_request != JobRequest::None || ui.attribution_request != JobRequest::None) return true;
  return checkpoint_ && (!text_asked_ || ui.text != text_ || ui.keep_first_tokens != keep_first_);
}

void ModelSession::wait_idle() {
  load_.wait_idle();
  before_runner_.wait_idle();
  after_runner_.wait_idle();
  predict_.wait_idle();
  scene_.wait_idle();
  precision_.wait_idle();
  lens_.wait_idle();
  attribution_.wait_idle();
  patching_.wait_idle();
  quant_.wait_idle();
  sources_.wait_idle();
}

bool ModelSession::computing() const { return before_runner_.busy() || after_runner_.busy(); }

TaskProgress ModelSession::progress() const {
  return before_runner_.busy() ? before_runner_.progress() : after_runner_.progress();
}

const std::vector<TokenPrediction>* ModelSession::predictions_at(int position) const {
  if (before_ && position == static_cast<int>(before_->ids.size()) - 1) return &before_->predictions;
  const auto it = hovered_.find(position);
  return it == hovered_.end() ? nullptr : &it->second;
}

// Once per model: the view draws it every frame.
std::string ModelSession::describe_family(const attn::hf::Checkpoint& checkpoint) {
  const attn::hf::ModelConfig& c = checkpoint.config();
  const std::string types = weight_types(checkpoint);
  std::string line = c.family_name() + ", " + std::to_string(c.n_layers) + " layers x " + std::to_string(c.n_heads) +
                     " heads, d " + std::to_string(c.d_model);
  if (c.n_kv_heads != c.n_heads) line += ", " + std::to_string(c.n_kv_heads) + " key/value heads";
  return line + (types.empty() ? "" : ", " + types.substr(0, types.find(',')));
}


}  // namespace model
