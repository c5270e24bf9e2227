// The Model view (model_view.cpp): a Hugging Face model folder run on a
// text, in the canvas's place. Left: the folder, the model's family, the
// text, the progress of the forward pass, the next-token predictions
// (before and after heads are switched off) and the switch-off controls.
// Right: every layer and head at a glance (model_overview.cpp) or one
// layer's heads as lines between tokens (head_view.cpp). It reads the
// model session and writes only requests to ModelUi.
#pragma once

#include <string>

#include <imgui.h>

#include "feature/feature_view.hpp"
#include "gl/font_set.hpp"
#include "hf/atlas_textures.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/hf/model_session.hpp"
#include "model/hf/model_view_feature.hpp"
#include "model/settings/theme.hpp"
#include "widgets/fitted_label.hpp"  // same_line_if_room, for the views of this folder
#include "widgets/widget_probe.hpp"

namespace viz {

struct ModelViewData {
  const ModelSession& session;
  ModelUi& ui;  // what the user chooses here (the Model view feature's)
  const AtlasTextures& textures;
  const FontSet& fonts;
};

void draw_model_view(ImVec2 pos, ImVec2 size, const ModelViewData& d, AppState& state, WidgetProbe* probe);

// The Model view as the canvas's stand-in while it is open. `textures`: the
// overview's atlases, which the App keeps in step with the model's session.
class ModelFeatureView : public FeatureViewOf<ModelViewFeature> {
 public:
  ModelFeatureView(ModelViewFeature& feature, const AtlasTextures& textures)
      : FeatureViewOf(feature), textures_(textures) {}
  bool takes_canvas() const override { return feature_.ui.open; }
  void draw_in_canvas(const CanvasPlace& place) override {
    const ModelViewData view{feature_.session, feature_.ui, textures_, place.fonts};
    draw_model_view(place.pos, place.size, view, place.state, place.probe);
  }

 private:
  const AtlasTextures& textures_;
};

// The parts, each in its own file.
void draw_model_overview(const ModelViewData& d, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe);
void draw_head_view(const ModelViewData& d, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe);
// A PassJob's state while its tab waits: its error ("The logit lens failed:
// ..."), "Computing the logit lens: 40%…" with Cancel, or "Stopped" with a
// button to compute it after all (into `request`). True while there is no result.
struct PassJobState {
  std::string error;
  TaskProgress progress;
  bool running = false, cancelled = false;
  template <class Job>
  static PassJobState of(const Job& job) {
    return {job.error(), job.progress(), job.running(), job.cancelled()};
  }
};
bool pass_job_waiting(const char* what, const PassJobState& job, bool has_result, JobRequest& request,
                      const ThemePalette& pal, WidgetProbe* probe);
// The Lens tab (model_lens_view.cpp), in the probability colours `map`.
void draw_model_lens(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe);
// The Attribution tab (model_attribution_view.cpp), in the signed colours `map`.
void draw_model_attribution(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe);
// The Patching tab (model_patching_view.cpp), in the signed colours `map`.
void draw_model_patching(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe);
// A running job's line, beside its Run button: the progress bar (`what`,
// "3 of 144 runs") and Cancel (probed as `cancel_probe`); true when pressed.
bool job_progress_row(const TaskProgress& progress, const std::string& what, const char* cancel_id, WidgetProbe* probe,
                      const char* cancel_probe);
// A failed job's message, in the error colour: `prefix` + `error` ("" draws nothing).
void job_error_line(const std::string& prefix, const std::string& error, const ThemePalette& pal);
// The Quantization tab (model_quant_view.cpp), in the signed colours `map`.
void draw_model_quant(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe);
void draw_token_strip(const ModelSession& session, ModelUi& ui, WidgetProbe* probe);
void draw_model_predictions(const ModelSession& session, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe);

// A token as the view prints it: a space shown as a middle dot, so " the"
// and "the" differ and a lone space is not an empty box.
std::string shown_token(const std::string& token);

// A radio button's width: its circle, the spacing and its label.
float radio_width(const char* label);

// Switches a head off, or back on (ModelUi::heads_off).
void toggle_head(ModelUi& ui, int layer, int head);
bool head_is_off(const ModelUi& ui, int layer, int head);

}  // namespace viz
