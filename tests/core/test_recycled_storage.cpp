// The storage of large matrices a trace lets go of, written over by the next
// trace (core/src/recycled_storage.hpp): the next trace really lands on it,
// its numbers are the same bit for bit as on new storage (nothing of the old
// values survives), and the waiting storage is bounded in bytes and time and
// freed on request. Reads the core's internals.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "attn/compute/trace.hpp"
#include "execution/fresh_matrix.hpp"
#include "execution/recycled_storage.hpp"
#include "trace_diff.hpp"

namespace {

using attn::detail::recycled_bytes;

// The data pointers of a trace's stored matrices of 1 MB or more.
std::set<const double*> large_storage(const attn::Trace& t) {
  std::set<const double*> out;
  for (const attn::Stage& s : t.stages)
    if (!s.value.derived() && static_cast<std::size_t>(s.value.size()) * sizeof(double) >= attn::detail::kRecycleFrom)
      out.insert(s.value.stored().data());
  return out;
}

}  // namespace

TEST_CASE("a trace after a trace is written over its predecessor's large storage, with the same numbers") {
  attn::release_recycled_storage();
  trace_diff::Rng r(31);
  attn::Scenario a = trace_diff::threaded_scene(r, 3, 64);  // 600 tokens: scores of 2.9 MB, Q/K/V of 0.3 MB
  a.mask = attn::MaskKind::Causal;
  attn::Scenario b = a;  // the same shapes, other numbers
  b.x *= -1.5;
  b.heads[1].w_q.setConstant(0.25);
  std::set<const double*> before;
  {
    const attn::Trace first = attn::compute_trace(a);
    before = large_storage(first);
    REQUIRE(before.size() >= 3);  // every head's scores at least
  }
  CHECK(recycled_bytes() > 0);
  const attn::Trace second = attn::compute_trace(b);
  std::size_t reused = 0;
  for (const double* p : large_storage(second)) reused += before.count(p);
  CHECK(reused == before.size());  // every waiting block was taken again
  attn::release_recycled_storage();
  CHECK(recycled_bytes() == 0);
  trace_diff::check_bit_identical(second, attn::compute_trace(b));  // fresh storage this time
}

TEST_CASE("waiting storage is freed on request, after its time, and past its byte limit") {
  attn::release_recycled_storage();
  const std::size_t block = std::size_t{2} << 20;  // 2 MB: 512 × 512 doubles
  {
    auto m = attn::detail::share_recycled(attn::Mat::Constant(512, 512, 1.0));
  }
  CHECK(recycled_bytes() == block);
  attn::Mat taken;
  CHECK_FALSE(attn::detail::take_recycled(taken, 256, 256));  // another size: none
  CHECK(attn::detail::take_recycled(taken, 256, 1024));       // the same number of entries
  CHECK(taken.rows() == 256);
  CHECK(taken.cols() == 1024);
  CHECK(recycled_bytes() == 0);
  // Small matrices are never kept.
  { auto small = attn::detail::share_recycled(attn::Mat::Constant(64, 64, 1.0)); }
  CHECK(recycled_bytes() == 0);
  // At most 5 MB: a third 2 MB block pushes out the oldest.
  attn::detail::set_recycle_limits(std::size_t{5} << 20, 0.2);
  for (int i = 0; i < 3; ++i) { auto m = attn::detail::share_recycled(attn::Mat::Constant(512, 512, i)); }
  CHECK(recycled_bytes() == 2 * block);
  CHECK(attn::detail::take_recycled(taken, 512, 512));
  CHECK(taken(0, 0) == 2.0);  // the newest is taken first
  // Past its time, storage is freed at the next give or take.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(attn::detail::take_recycled(taken, 512, 512));
  CHECK(recycled_bytes() == 0);
  attn::detail::set_recycle_limits(std::size_t{1} << 30, 2.0);
  { auto m = attn::detail::share_recycled(attn::Mat::Constant(512, 512, 1.0)); }
  attn::release_recycled_storage();
  CHECK(recycled_bytes() == 0);
}

TEST_CASE("storage given back and taken from several threads at once keeps its shapes and its count") {
  attn::release_recycled_storage();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const Eigen::Index rows = 256 + 256 * ((i + t) % 3), cols = 512;
        attn::Mat m = attn::detail::fresh_matrix(rows, cols);
        if (m.rows() != rows || m.cols() != cols) ++wrong;
        m.setConstant(t);
        auto shared = attn::detail::share_recycled(std::move(m));
        if ((*shared)(rows - 1, cols - 1) != t) ++wrong;
      }
    });
  for (std::thread& th : threads) th.join();
  CHECK(wrong == 0);
  CHECK(recycled_bytes() > 0);
  CHECK(recycled_bytes() <= std::size_t{1} << 30);
  attn::release_recycled_storage();
  CHECK(recycled_bytes() == 0);
}
