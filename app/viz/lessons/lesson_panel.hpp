// The lesson panel (left of the canvas while a lesson runs) and the start
// page that lists the lessons with each one's progress.
#pragma once

#include <imgui.h>

#include "widgets/widget_probe.hpp"
#include "gl/font_set.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/train/train_ui.hpp"
#include "model/lessons/lesson_catalogue.hpp"

namespace viz {

void draw_lesson_panel(ImVec2 pos, ImVec2 size, AppState& state, LessonState& lessons, TrainUi& train, const FontSet& fonts, const attn::Trace* trace,
                       WidgetProbe* probe);

// "Checking lesson… step k of n" with Cancel, over the canvas, while a
// lesson is checked in the background (lesson_opening.hpp).
void draw_lesson_check(ImVec2 pos, ImVec2 size, const AppState& state, LessonState& lessons, WidgetProbe* probe);

// The start page: a window over the canvas, while state.show_start_page.
void draw_start_page(ImVec2 pos, ImVec2 size, AppState& state, LessonState& taken, const LessonCatalogue& lessons,
                     WidgetProbe* probe);

}  // namespace viz
