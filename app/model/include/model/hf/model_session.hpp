// The Model view's side of the session: a Hugging Face folder opened on a
// TaskRunner, the text run through it in the background (a new text
// replaces the running pass), a second pass with heads switched off, the
// predictions at a hovered position on demand, and one head's layer built as
// a scene for the pipeline view. The UI thread only reads finished results.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/io/scenario_file.hpp"
#include "model/colour/colourmap.hpp"
#include "model/hf/forward_counts.hpp"
#include "model/hf/model_analysis.hpp"
#include "model/hf/model_attribution.hpp"
#include "model/hf/model_lens.hpp"
#include "model/hf/model_patching.hpp"
#include "model/hf/model_quant.hpp"
#include "model/hf/model_sources.hpp"
#include "model/hf/model_ui.hpp"
#include "model/hf/precision_check.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

// A head's layer built for the pipeline view: the scene, its label and the
// head to show, and, with heads switched off, the same layer with them off
// (for the compare view's B) and words for what is off.
struct HeadToShow {
  std::shared_ptr<const attn::io::ScenarioFile> scene;
  std::string label;  // "gpt2, layer 1, head 3"
  int head = 0;
  std::shared_ptr<const attn::Scenario> switched_off;
  std::string off_label;  // "L0 H1, L1 H2 off (zero)", or the corrupted prompt's
  std::string on_label = "all heads on";  // the compare view's A: "clean" when patching
  int layer = 0;                          // the model's layer the scene is
  std::vector<int> ids;                   // the text it ran on
};

class ModelSession {
 public:
  ModelSession();
  ModelSession(const ModelSession&) = delete;
  ModelSession& operator=(const ModelSession&) = delete;
  void set_wake(const std::function<void()>& wake);

  // One frame: what changed in `ui` starts jobs, finished jobs are taken
  // in. A head's layer that is ready comes back once.
  std::optional<HeadToShow> update(ModelUi& ui, ColourmapId map);
  // Work runs or waits, or `ui` asks for something not yet started.
  bool pending(const ModelUi& ui) const;
  void wait_idle();  // headless pictures and tests
  bool computing() const;  // the forward passes (the progress line)
  TaskProgress progress() const;
  bool opening_scene() const { return scene_.busy(); }

  const attn::hf::Checkpoint* checkpoint() const { return checkpoint_.get(); }
  const std::string& family_line() const { return family_line_; }  // "GPT-2, 12 layers x 12 heads, d 768, F32"
  // Which precision the overview, head view and predictions are in, and how
  // closely they agree with float64 on this text, once measured (the
  // pipeline's scenes are float64).
  const std::string& precision_line() const { return precision_.line(); }
  const PrecisionCheck& precision() const { return precision_; }
  // Every forward pass this session's jobs started, and the layers they
  // computed, per precision (tests hold it to once per need; bench prints it).
  const ForwardCounts& forward_counts() const { return counts_; }
  const std::string& error() const { return error_; }
  // Something the session did on its own that the user should know of
  // ("model.safetensors was rewritten on disk while it was open: opened again").
  const std::string& notice() const { return notice_; }
  // The text has more tokens than the model has positions (error() says
  // so; ModelUi::keep_first_tokens runs the first ones instead).
  bool too_long() const { return too_long_; }
  // "Kept the first 64 of 80 tokens..." when the text was cut; "" otherwise.
  const std::string& note() const { return note_; }
  bool cancelled() const { return cancelled_; }
  const std::vector<int>& ids() const { return ids_; }
  const std::vector<std::string>& labels() const { return labels_; }
  const ModelAnalysis* before() const { return before_.get(); }
  const ModelAnalysis* after() const { return after_.get(); }  // heads switched off (null when none)
  const HeadAtlas& atlas() const { return atlas_; }
  const HeadAtlas& atlas_after() const { return atlas_after_; }
  std::uint64_t atlas_generation() const { return atlas_generation_; }  // moves when either atlas does
  // The predictions at `position` once computed (the last position's come with the pass).
  const std::vector<TokenPrediction>* predictions_at(int position) const;

  // The logit lens of the pass with every head on (the Lens tab asks for it).
  const ModelLens& lens() const { return lens_; }
  // Each head's direct part of the top guess's logit (the Attribution tab asks).
  const ModelAttribution& attribution() const { return attribution_; }
  // Activation patching between the text and a corrupted one (the Patching tab runs it).
  const ModelPatching& patching() const { return patching_; }
  // Each head's attention against the same model at higher precision (the Quantization tab runs it).
  const ModelQuant& quant() const { return quant_; }
  // A pinned score of a layer this view opened, split by source (the
  // inspector shows it); asking again for the same cell starts nothing.
  void ask_sources(const std::vector<int>& ids, const ModelScoreCell& cell) { sources_.ask(checkpoint_, ids, cell); }
  const ModelSources& sources() const { return sources_; }

  nlohmann::json dump(const ModelUi& ui) const;  // --dump-state's "model"

 private:
  struct Loaded {
    std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
    std::shared_ptr<const ModelTokens> tokens;
  };
  struct PredictInput {
    std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
    std::shared_ptr<const ModelTokens> tokens;
    std::shared_ptr<const attn::hf::ForwardResult<float>> forward;
    int position = 0;
  };
  struct Predicted {
    const attn::hf::ForwardResult<float>* forward = nullptr;  // which pass they belong to
    int position = 0;
    std::vector<TokenPrediction> predictions;
  };
  struct SceneInput {
    std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
    std::string folder_name;  // names the scene in the window title
    std::vector<int> ids;
    std::vector<std::string> labels;
    attn::hf::HeadRef head;
    std::vector<attn::hf::HeadRef> heads_off;  // switched off in the Model view: the compare view's B
    attn::hf::AblationMode mode = attn::hf::AblationMode::Zero;
    // The precision check's float64 pass on `ids` once done (else null): the
    // scene is cut from the input it kept, not computed again.
    std::shared_ptr<const attn::hf::ForwardResult<double>> float64;
    ForwardCounts* counts = nullptr;
    // Patching's corrupted prompt (else empty): the compare view's B is then
    // this layer on these ids, not the layer with heads switched off.
    std::vector<int> corrupted;
    std::vector<std::string> corrupted_labels;
    std::string corrupted_label;
    // Quantization: the compare view's B is this layer of the model beside
    // (at higher precision) on the same ids.
    std::shared_ptr<const attn::hf::Checkpoint> beside;
    std::string beside_label, own_label;
  };
  struct Scene {
    std::shared_ptr<const attn::io::ScenarioFile> file;
    std::string label;
    int head = 0;
    std::shared_ptr<const attn::Scenario> switched_off;  // the same layer with heads_off (null: none reach it)
    std::string off_label;                               // "L0 H1, L0 H3 off (zero)"
    std::string on_label = "all heads on";
    int layer = 0;
    std::vector<int> ids;
  };

  static Scene open_scene(const SceneInput& in, TaskContext<Scene>& control);
  // The precision check's float64 pass once it is done on the text's ids, else null.
  std::shared_ptr<const attn::hf::ForwardResult<double>> float64_of_text() const;
  void forget_model();
  void reopen_if_changed();
  void forget_text();
  void start_passes(ModelUi& ui);
  void tokenize(const ModelUi& ui);
  void take_outcomes(ColourmapId map);

  // Ahead of the runners: their jobs count into it, and they join first.
  ForwardCounts counts_;
  TaskRunner<std::string, Loaded> load_;
  TaskRunner<AnalysisInput, ModelAnalysis> before_runner_, after_runner_;
  TaskRunner<PredictInput, Predicted> predict_;
  TaskRunner<SceneInput, Scene> scene_;
  PrecisionCheck precision_;  // the overview's float32 pass against float64
  ModelLens lens_;
  ModelAttribution attribution_;
  ModelPatching patching_;
  ModelQuant quant_;
  ModelSources sources_;

  std::string folder_;  // asked for
  std::shared_ptr<const attn::hf::Checkpoint> checkpoint_;
  std::string family_line_;  // of checkpoint_, made when it lands
  static std::string describe_family(const attn::hf::Checkpoint& checkpoint);
  std::shared_ptr<const ModelTokens> tokens_;
  std::string error_;
  std::string notice_;
  bool cancelled_ = false;
  std::string text_;  // the text of the pass asked for
  bool keep_first_ = false;  // and whether it was cut to the model's positions
  bool too_long_ = false;
  std::string note_;
  bool text_asked_ = false;
  std::vector<int> ids_;
  std::vector<std::string> labels_;
  std::string after_key_;  // the heads switched off (and mode) of the second pass asked for
  std::shared_ptr<const ModelAnalysis> before_, after_;
  HeadAtlas atlas_, atlas_after_;
  std::uint64_t atlas_generation_ = 0;
  ColourmapId atlas_map_{};
  std::map<int, std::vector<TokenPrediction>> hovered_;
  std::map<int, bool> asked_;  // positions whose predictions were asked for
};

}  // namespace model
