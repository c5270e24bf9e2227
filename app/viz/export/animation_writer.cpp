// GIF (cgif) and MP4 (ffmpeg pipe) writers and the encoding thread.
#include "export/animation_writer.hpp"

#include <unistd.h>

#include <cgif.h>

#include <cstdio>
#include <cstdlib>

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

std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class Mp4Writer : public AnimationWriter {
 public:
  Mp4Writer(const std::string& path, int width, int height, int fps) : path_(path), width_(width), height_(height) {
    // yuv420p (what players expect) needs even sides: pad by a pixel if needed.
    const std::string command = "ffmpeg -y -loglevel error -f rawvideo -pix_fmt rgba -s " + std::to_string(width) + "x" +
                                std::to_string(height) + " -r " + std::to_string(fps) +
                                " -i - -vf pad=ceil(iw/2)*2:ceil(ih/2)*2 -pix_fmt yuv420p -c:v libx264 " + shell_quote(path);
    pipe_ = ::popen(command.c_str(), "w");
    if (!pipe_) throw ExportError("cannot start ffmpeg");
  }
  ~Mp4Writer() override {
    if (pipe_) ::pclose(pipe_);
  }
  void add(const RgbaImage& frame) override {
    if (frame.width != width_ || frame.height != height_) throw ExportError("an MP4 frame changed size");
    if (std::fwrite(frame.pixels.data(), 1, frame.pixels.size(), pipe_) != frame.pixels.size())
      throw ExportError("ffmpeg stopped reading frames for " + path_);
  }
  void finish() override {
    const int status = ::pclose(pipe_);
    pipe_ = nullptr;
    if (status != 0) throw ExportError("ffmpeg could not write " + path_ + " (exit status " + std::to_string(status) + ")");
  }

 private:
  std::string path_;
  int width_, height_;
  FILE* pipe_ = nullptr;
};

}  // namespace

bool ffmpeg_available() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && ::access((dir + "/ffmpeg").c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::unique_ptr<AnimationWriter> make_gif_writer(const std::string& path, const RgbaImage& sample,
                                                 const std::vector<Rgba>& extra, int fps) {
  return std::make_unique<GifWriter>(path, sample, extra, fps);
}

std::unique_ptr<AnimationWriter> make_mp4_writer(const std::string& path, int width, int height, int fps) {
  if (!ffmpeg_available()) throw ExportError(kNoFfmpeg);
  return std::make_unique<Mp4Writer>(path, width, height, fps);
}

EncodeWorker::EncodeWorker(std::unique_ptr<AnimationWriter> writer)
    : writer_(std::move(writer)), thread_([this] { run(); }) {}

EncodeWorker::~EncodeWorker() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

bool EncodeWorker::has_room() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size() < 3;
}

void EncodeWorker::push(RgbaImage frame) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(frame));
  }
  wake_.notify_one();
}

void EncodeWorker::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  wake_.notify_one();
}

void EncodeWorker::cancel() {
  {
    // Under the lock: set between the worker's check and its wait, the
    // flag would otherwise be missed and the worker sleep for good.
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  wake_.notify_one();
}

std::string EncodeWorker::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void EncodeWorker::run() {
  try {
    for (;;) {
      RgbaImage frame;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return cancelled_ || closed_ || !queue_.empty(); });
        if (cancelled_) break;
        if (queue_.empty()) {  // closed and drained
          lock.unlock();
          writer_->finish();
          break;
        }
        frame = std::move(queue_.front());
        queue_.pop_front();
      }
      writer_->add(frame);
      ++encoded_;
    }
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = e.what();
  }
  writer_.reset();  // closes the file or the pipe on this thread
  done_ = true;
}

}  // namespace viz
