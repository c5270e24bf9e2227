// The Train view (train_view.cpp): settings and Train / Pause / Reset, the
// live loss and accuracy curves, the snapshot history, and every head's
// attention grid on one held-out example, in the canvas's place. It only
// reads the session and the derived grids, and writes requests to TrainUi.
#pragma once

#include <utility>
#include <vector>

#include <imgui.h>

#include "feature/feature_view.hpp"
#include "panels/editor_panel.hpp"
#include "gl/font_set.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/train/train_feature.hpp"
#include "model/train/train_session.hpp"
#include "model/train/train_ui.hpp"
#include "model/train/train_view_model.hpp"

namespace viz {

struct TrainViewData {
  const TrainSession& session;
  TrainUi& ui;  // what the user chooses here (the Train feature's)
  const TrainGrids& grids;
  const FontSet& fonts;
  const LessonState& lessons;  // a lesson's "which head" question hides the answer
};

// A view's bold title with a Close button at the right of `width`; true when Close is pressed.
bool view_title(const FontSet& fonts, const char* title, float width);

void draw_train_view(ImVec2 pos, ImVec2 size, const TrainViewData& data, AppState& state, WidgetProbe* probe);

// The Train view as the canvas's stand-in while it is open; `lessons`: a
// lesson's "which head" question hides the answer.
class TrainFeatureView : public FeatureViewOf<TrainFeature> {
 public:
  TrainFeatureView(TrainFeature& feature, const LessonState& lessons) : FeatureViewOf(feature), lessons_(lessons) {}
  bool takes_canvas() const override { return feature_.ui.open; }
  void draw_in_canvas(const CanvasPlace& place) override {
    const TrainViewData view{feature_.run(), feature_.ui, feature_.grids(), place.fonts, lessons_};
    draw_train_view(place.pos, place.size, view, place.state, place.probe);
  }

 private:
  const LessonState& lessons_;
};

// Why the strongest induction head attends where it does (train_why_view.cpp).
// `compact` (a slide): its title, its largest part and the key's sources only.
void draw_train_why(const TrainWhy& why, const FontSet& fonts, const ThemePalette& pal, WidgetProbe* probe,
                    bool compact = false);

// The loss and held-out accuracy curves (train_curves.cpp); a click picks
// the nearest snapshot. `plot_h`: each plot's height (0: five lines').
// Returns the height used.
float draw_train_curves(const TrainSession& session, const TrainGrids& grids, TrainUi& ui, float width,
                        const ThemePalette& pal, WidgetProbe* probe, float plot_h = 0);

// Every head's grid (train_head_grids.cpp) within `max_h`, or only the
// (layer, head)s in `only`, in one row; `with_scores`: each grid's "prev"
// and "ind" under it.
void draw_head_grids(const TrainViewData& d, AppState& state, const ThemePalette& pal, WidgetProbe* probe, float max_h,
                     bool with_scores, const std::vector<std::pair<int, int>>& only = {});

}  // namespace viz
