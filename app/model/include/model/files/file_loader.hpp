// Reads scenario files on a background thread, so opening a large scene (an
// 85 MB, 2048-token file takes about a second to parse) never freezes the
// window. One request at a time: a newer one replaces one not yet started,
// and cancel() drops the one being read (the read itself runs to its end on
// the worker; its result is thrown away).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "model/files/disk_stamp.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

// Files at least this large open in the background; smaller ones open at
// once (they parse in a few milliseconds, and a frame of "Opening…" would
// only flicker).
constexpr std::uintmax_t kBackgroundOpenBytes = 4u << 20;

class FileLoader {
 public:
  struct Loaded {
    std::string path;
    std::optional<attn::io::ScenarioFile> file;  // empty when it could not be read
    std::string error;                           // why not (load_scenario's message)
    DiskStamp stamp;                             // the bytes that were read
  };

  FileLoader();
  ~FileLoader() = default;  // stops after the read in progress
  FileLoader(const FileLoader&) = delete;
  FileLoader& operator=(const FileLoader&) = delete;

  // Called on the worker when a result is ready (wakes the window's loop).
  void set_on_ready(std::function<void()> wake);
  void start(std::string path);
  void cancel();
  // A request is being read (or waits to be) and has not been cancelled.
  bool busy() const;
  std::string reading() const;  // its path, empty when not busy
  // The finished read of the newest request, once.
  std::optional<Loaded> take();
  bool has_result() const;  // take() would return one
  // Blocks until nothing is being read (tests).
  void wait_idle() { runner_.wait_idle(); }

 private:
  static Loaded read(const std::string& path, TaskControl& task);

  std::string reading_;  // the newest request, until cancelled or taken
  // Newest wins: a read the user moved on from is cancelled, and its
  // result (the read runs to its end) never lands.
  TaskRunner<std::string, Loaded> runner_;
};

}  // namespace model
