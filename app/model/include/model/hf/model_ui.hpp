// What the user chose in the Model view (ModelViewFeature): the Hugging Face
// folder and the text it runs on, what the overview colours by, the heads
// switched off, the head view's layer and heads, the corrupted prompt of
// patching, and the requests the session carries out (open a head in the
// pipeline view, run patching, cancel).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attn/hf/forward/forward.hpp"
#include "attn/hf/why/patching.hpp"

namespace model {

enum class HeadMeasure { Previous, First, Self, Entropy };

// What the user asks of a tab's background job (the lens, the attribution).
enum class JobRequest { None, Cancel, Retry };

struct ModelUi {
  bool open = false;                   // the Model view takes the canvas's place
  std::string folder;                  // the model folder ("" : none yet)
  std::string folder_draft;            // the path typed in the view
  std::string text;                    // what the model reads (token ids until the tokenizer lands)
  bool keep_first_tokens = false;      // a text longer than the model's positions runs on its first ones
  enum class Tab { Overview, Heads, Lens, Attribution, Patching, Quantization };
  Tab tab = Tab::Overview;
  int layer = 0;                       // the head view's layer
  std::vector<int> heads_hidden;       // head view: heads whose lines are not drawn
  HeadMeasure measure = HeadMeasure::Previous;  // the overview's border colour
  bool sort_by_measure = false;        // each layer's heads ordered by it, highest first
  bool switch_mode = false;            // a left click switches a head off/on instead of opening it
  bool show_after = false;             // the overview shows the weights with the heads switched off
  std::vector<attn::hf::HeadRef> heads_off;
  attn::hf::AblationMode mode = attn::hf::AblationMode::Zero;
  int hovered_position = -1;           // the token under the mouse (its predictions are shown)
  std::optional<attn::hf::HeadRef> open_in_pipeline;
  JobRequest lens_request = JobRequest::None, attribution_request = JobRequest::None;
  // Patching: the corrupted prompt (the text above is the clean one), what
  // is patched, and the requests: run, cancel, open a head clean against
  // corrupted in the compare view.
  std::string corrupted;
  std::string patch_answer, patch_wrong;  // the metric's tokens as text ("": the runs' top guesses)
  attn::hf::PatchSite patch_site = attn::hf::PatchSite::HeadOutput;
  bool run_patching = false;
  bool cancel_patching = false;
  std::optional<attn::hf::HeadRef> open_patched;
  // Quantization: the same model at higher precision beside this one (a
  // path, as typed), and the requests: compare, cancel, open a head's layer
  // with this model (A) against that one (B) in the compare view.
  std::string beside;
  bool run_quant = false;
  bool cancel_quant = false;
  std::optional<attn::hf::HeadRef> open_quant;
  // The layer the pipeline shows, opened from here, on these ids, and the
  // document's revision then: while it is unedited, a pinned score of it is
  // split by source in the residual stream (ModelSources).
  struct InPipeline {
    int layer = 0;
    std::vector<int> ids;
    std::uint64_t revision = 0;
  };
  std::optional<InPipeline> in_pipeline;
  bool cancel = false;                 // stop the running forward pass
  bool rerun = false;                  // run it again after a cancel
};

const char* measure_name(HeadMeasure m);

}  // namespace model
