// The background lesson check behind --lesson, File > Open lesson and the
// Lessons menu. Each check has its own job (progress, cancel flag, result)
// shared with its thread, so a cancelled check can finish its step on its
// own while a new one starts at once.
#include "model/lessons/lesson_loader.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>

#include "model/lessons/lesson_opening.hpp"

namespace model {

struct LessonLoader::Job {
  attn::io::LessonProgress progress;
  std::mutex mutex;
  std::condition_variable finished_cv;
  std::optional<Checked> result;
  bool finished = false;
};

LessonLoader::~LessonLoader() {
  if (job_) job_->progress.cancel = true;
  join_finished(true);
}

void LessonLoader::set_on_ready(std::function<void()> wake) { wake_ = std::move(wake); }

void LessonLoader::start(const std::string& path) {
  cancel();
  join_finished(false);
  auto job = std::make_shared<Job>();
  job_ = job;
  std::function<void()> wake = wake_;
  std::thread worker([job, path, wake] {
    Checked checked;
    checked.path = path;
    bool wanted = true;
    try {
      checked.lesson = attn::io::load_lesson(path, &job->progress);
    } catch (const attn::Cancelled&) {
      wanted = false;
    } catch (const std::exception& e) {
      checked.message = actions::lesson_problem_message(e);
    }
    {
      std::lock_guard<std::mutex> lock(job->mutex);
      if (wanted && !job->progress.cancel) job->result = std::move(checked);
      job->finished = true;
    }
    job->finished_cv.notify_all();
    if (wake) wake();
  });
  threads_.emplace_back(std::move(worker), job);
}

void LessonLoader::cancel() {
  if (!job_) return;
  job_->progress.cancel = true;
  job_.reset();
}

bool LessonLoader::busy() const { return job_ != nullptr; }

LessonLoader::Progress LessonLoader::progress() const {
  if (!job_) return {};
  return {job_->progress.steps_done.load(), job_->progress.steps.load()};
}

std::optional<LessonLoader::Checked> LessonLoader::take() {
  if (!job_) return std::nullopt;
  std::optional<Checked> out;
  {
    std::lock_guard<std::mutex> lock(job_->mutex);
    if (!job_->finished) return std::nullopt;
    out = std::move(job_->result);
  }
  job_.reset();
  join_finished(false);
  return out;
}

void LessonLoader::wait() {
  if (!job_) return;
  std::unique_lock<std::mutex> lock(job_->mutex);
  job_->finished_cv.wait(lock, [&] { return job_->finished; });
}

void LessonLoader::join_finished(bool all) {
  for (auto it = threads_.begin(); it != threads_.end();) {
    bool done = all;
    if (!done) {
      std::lock_guard<std::mutex> lock(it->second->mutex);
      done = it->second->finished;
    }
    if (done) {
      it->first.join();
      it = threads_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace model
