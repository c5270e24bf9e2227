// The background reader behind File ▸ Open for large scenes. Each request
// replaces the one before (TaskPolicy::Replace), so the window never
// installs a file the user has already moved on from.
#include "model/files/file_loader.hpp"

#include <exception>

#include "attn/io/machine_limits.hpp"

namespace model {

FileLoader::FileLoader()
    : runner_([](const std::string& path, TaskContext<Loaded>& task) { return read(path, task); },
              TaskPolicy::Replace) {}

FileLoader::Loaded FileLoader::read(const std::string& path, TaskControl& task) {
  Loaded result;
  result.path = path;
  try {
    StampedScenario read = load_stamped_scenario(path, attn::io::machine_limits());
    result.file = std::move(read.file);
    result.stamp = read.stamp;
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  // The parse cannot stop half-way; a read cancelled meanwhile hands back nothing.
  task.throw_if_cancelled();
  return result;
}

void FileLoader::set_on_ready(std::function<void()> wake) { runner_.set_wake(std::move(wake)); }

void FileLoader::start(std::string path) {
  reading_ = path;
  runner_.submit(std::move(path));
}

void FileLoader::cancel() {
  reading_.clear();
  runner_.cancel();
  runner_.discard();
}

bool FileLoader::busy() const { return runner_.busy(); }

std::string FileLoader::reading() const { return busy() ? reading_ : std::string(); }

std::optional<FileLoader::Loaded> FileLoader::take() {
  while (std::optional<TaskOutcome<Loaded>> o = runner_.take())
    if (o->done()) return std::move(o->result);
  return std::nullopt;
}

bool FileLoader::has_result() const { return runner_.has_done(); }

}  // namespace model
