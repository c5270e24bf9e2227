// The open file on disk: opened, read in the background, and watched.
//
// File > Open for a large scene: the read runs on viz::FileLoader's thread
// while the window keeps drawing the current document, with a line in the
// status panel and Cancel. The file becomes the document only when it has
// been read whole (or its error is shown, the current document kept).
#include "shell/app.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/files/disk_actions.hpp"

namespace viz {

void App::update_opening() {
  if (!state_.open_request.empty()) {
    loader_.start(state_.open_request);
    state_.open_request.clear();
  }
  if (state_.cancel_open) {
    loader_.cancel();
    state_.cancel_open = false;
  }
  if (std::optional<FileLoader::Loaded> done = loader_.take()) {
    if (done->file) actions::background_read_arrived(state_, std::move(*done->file), done->path, done->stamp);
    else actions::open_failed(state_, done->error);
  }
  state_.opening = loader_.reading();
}

// Someone else may change the open file while it is open (another window,
// an editor): the watcher's thread looks, and the status panel says so. Not
// in headless runs, which draw one picture of the file as it was read.
void App::watch_disk() {
  if (options_.headless()) return;
  disk_watcher_.watch(state_.path, state_.disk.stamp);
  if (std::optional<DiskReport> report = disk_watcher_.take()) actions::disk_report(state_, *report);
}

}  // namespace viz
