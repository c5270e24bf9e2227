// Animation encoders: GIF through libcgif (one 256-colour palette for the
// whole animation, median cut from a sample frame) and MP4 through an
// `ffmpeg` process fed raw RGBA frames on a pipe. An EncodeWorker runs one on
// a TaskRunner (every frame a job, in order), so the window keeps drawing
// while frames are encoded.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "export/offscreen_target.hpp"
#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "model/tasks/task_runner.hpp"

namespace viz {

struct ExportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class AnimationWriter {
 public:
  virtual ~AnimationWriter() = default;
  virtual void add(const RgbaImage& frame) = 0;  // throws ExportError
  virtual void finish() = 0;                     // completes the file; throws ExportError
};

// `sample` gives the palette (with `extra` colours kept exactly); frames
// show 1/fps seconds each, the last one held longer so a loop pauses there.
std::unique_ptr<AnimationWriter> make_gif_writer(const std::string& path, const RgbaImage& sample,
                                                 const std::vector<Rgba>& extra, int fps);
// Throws ExportError("ffmpeg not found: ...") when there is no ffmpeg on PATH.
std::unique_ptr<AnimationWriter> make_mp4_writer(const std::string& path, int width, int height, int fps);
// The message an MP4 export gives without ffmpeg.
extern const char* const kNoFfmpeg;
bool ffmpeg_available();

class EncodeWorker {
 public:
  explicit EncodeWorker(std::unique_ptr<AnimationWriter> writer);
  ~EncodeWorker() = default;  // cancels when not finished
  EncodeWorker(const EncodeWorker&) = delete;
  EncodeWorker& operator=(const EncodeWorker&) = delete;

  bool has_room() const;       // fewer than a few frames waiting: render another
  void push(RgbaImage frame);  // never blocks
  void close();                // no more frames: finish the file when the queue is empty
  void cancel();               // stop soon; the caller removes the file
  bool done();                 // finished, failed or cancelled
  int encoded();
  std::string error();         // "" unless it failed

 private:
  enum class Step { Frame, Finish, Drop };  // Drop: close the file unfinished (cancelled)
  struct Job {
    Step step = Step::Frame;
    RgbaImage frame;
  };
  // Runs on the runner's thread, one job at a time: the writer is the job's.
  Step encode(const Job& job);
  void collect();  // takes the landed outcomes into the counts below

  std::unique_ptr<AnimationWriter> writer_;  // reset on the runner's thread once finished, failed or dropped
  bool cancelled_ = false, done_ = false;
  int encoded_ = 0;
  std::string error_;
  TaskRunner<Job, Step> runner_;  // last: its thread uses the writer
};

}  // namespace viz
