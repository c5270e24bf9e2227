// GIF (cgif) and MP4 (frames piped to ffmpeg's input) writers and the encoding jobs.
#include "export/animation_writer.hpp"

#include <cgif.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "attn/platform/child_process.hpp"

#include "model_names.hpp"
#include "model/colour/colour_quantizer.hpp"

namespace viz {

const char* const kNoFfmpeg = "ffmpeg not found: install it with `sudo apt install ffmpeg`, or export a GIF";

namespace {

class GifWriter : public AnimationWriter {
 public:
  GifWriter(const std::string& path, const RgbaImage& sample, const std::vector<Rgba>& extra, int fps)
      : path_(path),
        width_(sample.width),
        height_(sample.height),
        delay_(static_cast<std::uint16_t>(std::max(2, 100 / std::max(1, fps)))),
        mapper_(median_cut_palette(sample.pixels.data(), sample.pixels.size() / 4, extra)),
        table_(mapper_.rgb_table()) {
    if (width_ <= 0 || height_ <= 0 || width_ > 65535 || height_ > 65535)
      throw ExportError("a GIF cannot be " + std::to_string(width_) + "x" + std::to_string(height_) + " pixels");
    CGIF_Config config{};
    config.path = path_.c_str();
    config.attrFlags = CGIF_ATTR_IS_ANIMATED;
    config.width = static_cast<std::uint16_t>(width_);
    config.height = static_cast<std::uint16_t>(height_);
    config.pGlobalPalette = table_.data();
    config.numGlobalPaletteEntries = static_cast<std::uint16_t>(table_.size() / 3);
    config.numLoops = CGIF_INFINITE_LOOP;
    gif_ = cgif_newgif(&config);
    if (!gif_) throw ExportError("cannot write " + path_ + " (cgif could not open it)");
  }
  ~GifWriter() override {
    if (gif_) cgif_close(gif_);
  }
  void add(const RgbaImage& frame) override {
    if (frame.width != width_ || frame.height != height_) throw ExportError("a GIF frame changed size");
    flush(false);
    pending_ = mapper_.map(frame.pixels.data(), frame.pixels.size() / 4);
  }
  void finish() override {
    flush(true);
    const int r = cgif_close(gif_);
    gif_ = nullptr;
    if (r != CGIF_OK) throw ExportError("cannot write " + path_ + " (cgif error " + std::to_string(r) + ")");
  }

 private:
  // Frames go out one late, so the last can be held longer.
  void flush(bool last) {
    if (pending_.empty()) return;
    CGIF_FrameConfig f{};
    f.pImageData = pending_.data();
    f.delay = last ? static_cast<std::uint16_t>(std::max<int>(delay_, 150)) : delay_;
    // Only what changed since the previous frame is stored: a step of the
    // animation touches a few cells, so the file stays small.
    f.genFlags = CGIF_FRAME_GEN_USE_TRANSPARENCY | CGIF_FRAME_GEN_USE_DIFF_WINDOW;
    const int r = cgif_addframe(gif_, &f);
    pending_.clear();
    if (r != CGIF_OK) throw ExportError("cannot write " + path_ + " (cgif error " + std::to_string(r) + ")");
  }

  std::string path_;
  int width_, height_;
  std::uint16_t delay_;
  PaletteMapper mapper_;
  std::vector<std::uint8_t> table_;
  std::vector<std::uint8_t> pending_;
  CGIF* gif_ = nullptr;
};

class Mp4Writer : public AnimationWriter {
 public:
  Mp4Writer(const std::string& path, int width, int height, int fps) : path_(path), width_(width), height_(height) {
    // yuv420p (what players expect) needs even sides: pad by a pixel if needed.
    const std::vector<std::string> command = {"ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba",
                                              "-s", std::to_string(width) + "x" + std::to_string(height),
                                              "-r", std::to_string(fps), "-i", "-",
                                              "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p",
                                              "-c:v", "libx264", path};
    try {
      ffmpeg_ = attn::platform::ChildProcess::start(command, attn::platform::ChildProcess::Pipe::ToStdin);
    } catch (const attn::platform::ProcessError& e) {
      throw ExportError(e.what());
    }
  }
  void add(const RgbaImage& frame) override {
    if (frame.width != width_ || frame.height != height_) throw ExportError("an MP4 frame changed size");
    if (!ffmpeg_ || !ffmpeg_->write_all(frame.pixels.data(), frame.pixels.size()))
      throw ExportError("ffmpeg stopped reading frames for " + path_);
  }
  void finish() override {
    if (!ffmpeg_) return;
    ffmpeg_->close_pipe();
    const attn::platform::ChildProcess::Exit exit = ffmpeg_->collect();
    ffmpeg_.reset();
    if (!exit.exited || exit.code != 0)
      throw ExportError("ffmpeg could not write " + path_ +
                        (exit.exited ? " (exit code " + std::to_string(exit.code) + ")" : std::string(" (it was stopped)")));
  }

 private:
  std::string path_;
  int width_, height_;
  std::unique_ptr<attn::platform::ChildProcess> ffmpeg_;  // its destructor closes the pipe and waits, as pclose did
};

}  // namespace

bool ffmpeg_available() { return attn::platform::program_on_path("ffmpeg"); }

std::unique_ptr<AnimationWriter> make_gif_writer(const std::string& path, const RgbaImage& sample,
                                                 const std::vector<Rgba>& extra, int fps) {
  return std::make_unique<GifWriter>(path, sample, extra, fps);
}

std::unique_ptr<AnimationWriter> make_mp4_writer(const std::string& path, int width, int height, int fps) {
  if (!ffmpeg_available()) throw ExportError(kNoFfmpeg);
  return std::make_unique<Mp4Writer>(path, width, height, fps);
}

EncodeWorker::EncodeWorker(std::unique_ptr<AnimationWriter> writer)
    : writer_(std::move(writer)),
      runner_([this](const Job& job, TaskContext<Step>&) { return encode(job); }, TaskPolicy::Queue) {}

EncodeWorker::Step EncodeWorker::encode(const Job& job) {
  if (!writer_) return job.step;  // failed before: the frames after it are skipped
  try {
    if (job.step == Step::Frame) {
      writer_->add(job.frame);
      return job.step;
    }
    if (job.step == Step::Finish) writer_->finish();
  } catch (...) {
    writer_.reset();  // closes the file or the pipe on this thread
    throw;
  }
  writer_.reset();
  return job.step;
}

bool EncodeWorker::has_room() const { return runner_.waiting() < 3; }

void EncodeWorker::push(RgbaImage frame) { runner_.submit(Job{Step::Frame, std::move(frame)}); }

void EncodeWorker::close() { runner_.submit(Job{Step::Finish, {}}); }

void EncodeWorker::cancel() {
  if (cancelled_ || done()) return;
  cancelled_ = true;
  runner_.cancel();                      // the frames waiting are dropped
  runner_.submit(Job{Step::Drop, {}});  // and the writer closed on the runner's thread
}

void EncodeWorker::collect() {
  while (std::optional<TaskOutcome<Step>> o = runner_.take()) {
    if (o->failed()) {
      error_ = o->error;
      done_ = true;
    } else if (o->result && *o->result == Step::Frame) {
      if (o->done()) ++encoded_;
    } else if (o->result) {
      done_ = true;  // finished, or closed after a cancel
    }
  }
}

bool EncodeWorker::done() {
  collect();
  return done_;
}

int EncodeWorker::encoded() {
  collect();
  return encoded_;
}

std::string EncodeWorker::error() {
  collect();
  return error_;
}

}  // namespace viz
