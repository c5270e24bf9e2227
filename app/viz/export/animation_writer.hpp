// Animation encoders: GIF through libcgif (one 256-colour palette for the
// whole animation, median cut from a sample frame) and MP4 through an
// `ffmpeg` process fed raw RGBA frames on a pipe. An EncodeWorker runs one on
// its own thread, so the window keeps drawing while frames are encoded.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "export/offscreen_target.hpp"
#include "model_names.hpp"
#include "model/colour/colormap.hpp"

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
  ~EncodeWorker();  // cancels when not finished
  EncodeWorker(const EncodeWorker&) = delete;
  EncodeWorker& operator=(const EncodeWorker&) = delete;

  bool has_room() const;       // fewer than a few frames waiting: render another
  void push(RgbaImage frame);  // never blocks
  void close();                // no more frames: finish the file when the queue is empty
  void cancel();               // stop soon; the caller removes the file
  bool done() const { return done_; }  // finished, failed or cancelled
  int encoded() const { return encoded_; }
  std::string error() const;   // "" unless it failed

 private:
  void run();
  std::unique_ptr<AnimationWriter> writer_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<RgbaImage> queue_;
  bool closed_ = false;
  std::atomic<bool> cancelled_{false}, done_{false};
  std::atomic<int> encoded_{0};
  std::string error_;
  std::thread thread_;
};

}  // namespace viz
