// `attnviz --benchmark` (scripts/bench.sh, `make bench`): what a user feels,
// measured in the real app under Xvfb and software GL. Prints the time from
// launch to the first frame and to the first drawn trace, the median and
// p95 frame (idle, or playing with --play), the frames while a background
// recompute runs after an edit (big scenes), and the CPU used while idle.
// Printed, never asserted: timings belong to benchmarks, not tests.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "shell/app.hpp"
#include "model/hf/model_folder.hpp"

namespace viz {
namespace {

using steady = std::chrono::steady_clock;
const steady::time_point kLaunch = steady::now();  // static init, before main()

double ms_since(steady::time_point t) { return std::chrono::duration<double, std::milli>(steady::now() - t).count(); }

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double status_mb(const char* field) {
  std::ifstream in("/proc/self/status");
  const std::string key = std::string(field) + ":";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return std::stod(line.substr(key.size())) / 1024;
  return 0;
}
double peak_mb() { return status_mb("VmHWM"); }
double resident_mb() { return status_mb("VmRSS"); }

// Starts a new peak from the memory in use now (Linux: "5" to clear_refs),
// so each edit's own peak can be read.
void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct Spread {
  double median = 0, p95 = 0, max = 0;
};

Spread spread(std::vector<double> ms) {
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back()};
}

}  // namespace

int App::run_benchmark() {
  // First frame, then frames until the trace is drawn (a big scene is read,
  // then its first trace computed, in the background while the window
  // shows progress).
  frame(0);
  platform_.swap();
  const double first_frame = ms_since(kLaunch);
  double file_read = opening() ? 0 : first_frame;  // a file named on the command line is read in the background
  double first_grids = !opening() && model_.has_trace() ? first_frame : 0;  // a big scene's preview, or its whole trace
  while (opening() || (model_.computing() && (!model_.has_trace() || model_.preview()))) {
    // Paced as the window paces them: a few frames a second while the file
    // is read and computed, and at once when either is done.
    wait_for_next_frame(0);
    frame(0);
    platform_.swap();
    if (file_read == 0 && !opening()) file_read = ms_since(kLaunch);
    if (first_grids == 0 && !opening() && model_.has_trace()) first_grids = ms_since(kLaunch);
  }
  const double first_trace = ms_since(kLaunch);
  if (first_grids == 0) first_grids = first_trace;
  // --model: the Model view's overview is on screen once the folder is read,
  // the forward pass has landed and a frame has drawn its atlas.
  double model_overview = 0;
  if (model_view_.ui.open) {
    while (model_view_.session.pending(model_view_.ui)) {
      wait_for_next_frame(0);
      frame(0);
      platform_.swap();
    }
    frame(0);
    platform_.swap();
    model_overview = ms_since(kLaunch);
  }
  const double first_compute = model_.last_compute_ms();
  const ComputePhases first_phases = model_.last_compute_phases();
  const double first_texels = session_.last_texels_ms();
  const double open_peak = peak_mb();

  std::vector<double> ms;
  auto last = steady::now();
  for (int i = 0; i < options_.frames + 5; ++i) {
    if (options_.play && !state_.clock.playing && model_.has_trace()) {
      state_.clock.t = 0;
      state_.clock.play(model_.timeline());
    }
    frame(1.0 / 60);
    platform_.swap();
    platform_.poll();
    if (i >= 5) ms.push_back(ms_since(last));  // skip warm-up
    last = steady::now();
  }
  const Spread frames = spread(ms);
  // --model: the Model view is what is on screen, so its pass is what is
  // timed (the built-in lesson behind it is not shown).
  if (model_view_.ui.open) {
    if (model_failed()) return 2;
    const ModelSession& m = model_view_.session;
    std::printf("attnviz benchmark: model %s (%s; %d tokens)\n", model::model_folder_name(model_view_.ui.folder).c_str(),
                m.family_line().c_str(), static_cast<int>(m.ids().size()));
    std::printf("  first frame %.0f ms after launch; overview of every layer and head on screen at %.0f ms\n", first_frame,
                model_overview);
    std::printf("  %d frames: median %.2f ms, p95 %.2f ms\n", static_cast<int>(ms.size()), frames.median, frames.p95);
    const double pass = time_model_pass();
    std::printf("  model pass (the text run again, heads measured, atlas drawn) %.0f ms; peak %.0f MB\n", pass, peak_mb());
    return 0;
  }

  // Edits (an input value, then a W_Q value of the head on screen) and the
  // frames while each recomputes (big scenes: in the background).
  struct Edit {
    const char* what;
    double ms = 0;
    std::vector<double> frames;
    double peak = 0;
    double compute = 0;  // of `ms`, the recompute itself (core, colour ranges)
    ComputePhases phases;
    double texels = 0;  // of `ms`, the texels made after it (TexelStep)
  };
  const double resident = resident_mb();
  std::vector<Edit> edits{{"X value", 0, {}, 0, 0, {}, 0}, {"W_Q value", 0, {}, 0, 0, {}, 0}};
  for (Edit& e : edits) {
    if (!model_.has_trace()) break;
    attn::Scenario& s = state_.doc.scenario;
    if (e.what[0] == 'X') s.x(0, 0) += 0.125;
    else if (!s.heads.empty()) s.heads[static_cast<size_t>(std::max(0, state_.view.head))].w_q(0, 0) += 0.125;
    else continue;
    // The worker frees the trace a result replaced just after it is shown:
    // each edit's own peak starts once that memory is back.
    model_.wait_idle();
    reset_peak();
    const auto start = steady::now();
    ++state_.revision;
    // Paced as the interactive loop paces them: an edit is an input, so a
    // few frames at once, then a few a second until the result wakes the
    // window. Each frame's own time is recorded, not the waits between.
    int settle = 3;
    do {
      if (wait_for_next_frame(settle) == Pace::Polled) --settle;
      const auto frame_start = steady::now();
      frame(1.0 / 60);
      platform_.swap();
      e.frames.push_back(ms_since(frame_start));
    } while (model_.computing());
    e.ms = ms_since(start);
    e.peak = peak_mb();
    e.compute = model_.last_compute_ms();
    e.phases = model_.last_compute_phases();
    e.texels = session_.last_texels_ms();
  }

  // Idle: the interactive loop blocks in wait() with nothing to do.
  const double cpu0 = cpu_seconds();
  const auto idle_start = steady::now();
  while (ms_since(idle_start) < 1000) platform_.wait(1.0);
  const double idle_cpu = 100 * (cpu_seconds() - cpu0) / (ms_since(idle_start) / 1000);

  const attn::Dims d = model_.has_trace() ? model_.trace().dims : attn::Dims{};
  std::printf("attnviz benchmark: %s (%d tokens, %d heads)%s\n", state_.path.empty() ? "built-in lesson" : state_.path.c_str(),
              d.n_q, d.n_heads, options_.play ? ", playing" : "");
  std::printf("  first frame %.0f ms after launch, document read at %.0f ms, first grids (head on screen) at %.0f ms, "
              "trace drawn at %.0f ms", first_frame, file_read, first_grids, first_trace);
  if (first_compute > 0)
    std::printf(" (its recompute %.0f ms: core %.0f, colour ranges %.0f; then texels %.0f)", first_compute,
                first_phases.core, first_phases.ranges, first_texels);
  std::printf("\n");
  if (model_overview > 0)
    std::printf("  model %s: overview of every layer and head on screen %.0f ms after launch\n", model_view_.ui.folder.c_str(),
                model_overview);
  std::printf("  %d frames: median %.2f ms, p95 %.2f ms\n", static_cast<int>(ms.size()), frames.median, frames.p95);
  for (const Edit& e : edits) {
    const Spread busy = spread(e.frames);
    // Which frame was the slowest: the first (it starts the recompute), the
    // last (it shows the result) or one in between.
    const auto slowest = std::max_element(e.frames.begin(), e.frames.end()) - e.frames.begin();
    std::printf("  %s edit -> on screen %.0f ms (recompute %.0f ms: core %.0f, colour ranges %.0f; then texels %.0f); "
                "%d frames meanwhile: median %.2f ms, max %.2f ms (frame %d); peak %.0f MB\n", e.what, e.ms,
                e.compute, e.phases.core, e.phases.ranges, e.texels, static_cast<int>(e.frames.size()),
                busy.median, busy.max, static_cast<int>(slowest) + 1, e.peak);
  }
  std::printf("  memory: peak %.0f MB opening, %.0f MB in use after it; idle CPU %.1f%%, texture uploads %d\n", open_peak,
              resident, idle_cpu, textures_->uploads());
  return 0;
}

// The text run again (as after an edit), timed until the frame that shows it.
double App::time_model_pass() {
  const auto start = steady::now();
  model_view_.ui.rerun = true;
  do {  // the first frame starts the pass; then each frame follows a job that landed
    frame(0);
    platform_.swap();
    model_view_.session.wait_idle();
  } while (model_view_.session.pending(model_view_.ui));
  frame(0);
  platform_.swap();
  return ms_since(start);
}

}  // namespace viz
