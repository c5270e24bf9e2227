// A Model view tab's background job (PassJob): started once per pass when
// its tab asks, cancelled on request and then left stopped, started again
// only by retry(). The job here waits until it is cancelled, so the test
// does not race a job that finishes first; a cancel may come before it
// begins (the job is then dropped) or while it runs.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "model/hf/pass_job.hpp"

namespace {

struct WaitResult {
  std::weak_ptr<const attn::hf::ForwardResult<float>> forward;
};

model::PassJob<WaitResult> waiting_job(int* started) {
  return model::PassJob<WaitResult>(
      [started](const model::PassJobInput&, model::TaskContext<WaitResult>& control) {
        ++*started;
        while (!control.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        control.throw_if_cancelled();
        return WaitResult{};
      },
      [](const attn::hf::ModelConfig&, const model::ModelAnalysis&) { return true; });
}

}  // namespace

TEST_CASE("pass job: a cancelled job stays stopped for its pass until retry starts it again") {
  const auto ck = attn::hf::Checkpoint::open(std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2");
  model::ModelAnalysis analysis;
  analysis.forward = std::make_shared<const attn::hf::ForwardResult<float>>();
  const auto tokens = std::shared_ptr<const model::ModelTokens>(model::ModelTokens::load(std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2"));
  int started = 0;
  model::PassJob<WaitResult> job = waiting_job(&started);
  job.update(true, ck, tokens, &analysis);
  CHECK(job.running());
  CHECK_FALSE(job.cancelled());
  job.cancel();
  job.wait_idle();
  job.update(true, ck, tokens, &analysis);
  CHECK(job.cancelled());
  CHECK_FALSE(job.running());
  CHECK(job.result(&analysis) == nullptr);
  const int before = started;  // 0 or 1: cancelled before or after it began
  job.update(true, ck, tokens, &analysis);  // still wanted, still stopped
  job.wait_idle();
  CHECK_FALSE(job.running());
  CHECK(started == before);
  job.retry();
  CHECK_FALSE(job.cancelled());
  job.update(true, ck, tokens, &analysis);
  CHECK(job.running());
  job.cancel();
  job.wait_idle();
  CHECK(job.cancelled());
}
