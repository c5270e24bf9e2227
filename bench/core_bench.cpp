// `make bench`, the core's tables: a full trace at the shapes (with
// and without a causal mask) in milliseconds (median and spread), GFLOP/s and
// peak memory; PyTorch's nn.MultiheadAttention on the same shapes when
// python3-torch is installed, in blocks alternating with attnviz's; this
// machine's double GEMM rate measured in the same run; and the time from an
// edit to its updated trace. Printed, never asserted: timings belong to
// benchmarks, not tests.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/io/scenario_file.hpp"
#include "attn/execution/parallel.hpp"
#include "attn/compute/trace.hpp"
#include "best_blas.hpp"
#include "bench_scenes.hpp"
#include "peak_memory.hpp"
#include "python_session.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

struct Timing {
  double median = 0, min = 0, max = 0;
};

Timing timing_of(std::vector<double> ms) {
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

// Appends the milliseconds of `repeats` calls of f.
void time_into(std::vector<double>& ms, int repeats, const std::function<void()>& f) {
  for (int i = 0; i < repeats; ++i) {
    const auto start = clock_type::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - start).count());
  }
}

Timing time_runs(int repeats, const std::function<void()>& f) {
  f();  // warm-up: allocators, caches, thread pool
  std::vector<double> ms;
  time_into(ms, repeats, f);
  return timing_of(std::move(ms));
}

// This machine's double GEMM rate on every core, the ceiling a trace is
// measured against: the 2048×768 by 768×2304 product, its columns
// split into one contiguous part per core (each part a single-threaded
// product, as Eigen with OpenMP would split it), so the figure is what both
// cores reach together, not what one does. With Eigen (this build's
// instruction set) or with OpenBLAS (best_blas.hpp); the limit is the better.
enum class Gemm { Eigen, OpenBlas };
double gemm_gflops(int threads, int runs = 5, Gemm with = Gemm::Eigen) {
  if (with == Gemm::OpenBlas && !bench::openblas().dgemm) return 0;
  std::mt19937 rng(1);
  std::normal_distribution<double> d;
  attn::Mat a(2048, 768), b(768, 2304);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = d(rng);
  for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = d(rng);
  attn::Mat c(2048, 2304);
  const Eigen::Index part = (b.cols() + threads - 1) / threads;
  const Timing t = time_runs(runs, [&] {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
      pool.emplace_back([&, i] {
        const Eigen::Index first = i * part, cols = std::min(part, b.cols() - first);
        if (cols <= 0) return;
        if (with == Gemm::OpenBlas)
          bench::openblas_product(a.data(), b.col(first).data(), c.col(first).data(), 2048, 768, static_cast<int>(cols));
        else
          c.middleCols(first, cols).noalias() = a * b.middleCols(first, cols);
      });
    for (std::thread& th : pool) th.join();
  });
  return 2.0 * 2048 * 768 * 2304 / (t.median * 1e6);
}

// The best of the two, the limit a trace is held to.
double best_gemm_gflops(int threads, int runs = 5) {
  return std::max(gemm_gflops(threads, runs, Gemm::Eigen), gemm_gflops(threads, runs, Gemm::OpenBlas));
}

struct Peer {
  bool ok = false;
  Timing t;
  double peak_mb = 0;
  std::string note, blas, version;
};

// Says which BLAS PyTorch ran on, once: Debian's torch takes whichever
// libblas.so.3 is installed, and the reference BLAS makes it ~10x slower,
// which would flatter every ratio in the table.
void report_peer_blas(const std::string& blas, const std::string& version) {
  static bool said = false;
  if (said || blas.empty()) return;
  said = true;
  const bool reference = blas.find("/blas/libblas.so") != std::string::npos;
  const char* kernels = std::getenv("OPENBLAS_CORETYPE");
  std::printf("  (PyTorch %s, its BLAS: %s%s%s%s)\n", version.c_str(), blas.c_str(),
              kernels ? ", OPENBLAS_CORETYPE=" : "", kernels ? kernels : "",
              reference ? " -- the slow reference BLAS: `sudo apt install libopenblas0-pthread` for a fair peer" : "");
}

// Runs f, untimed, for at least 30 ms (one run of a large shape). Each
// block of a race starts with this, on either side: PyTorch's threads spin
// for up to about 20 ms after its block, longer than a block of small shapes
// takes, and a core that has just idled may run slower for a while.
void warm_up(const std::function<void()>& f) {
  const auto start = clock_type::now();
  do f();
  while (clock_type::now() - start < std::chrono::milliseconds(30));
}

// Runs of each side, in rounds that alternate attnviz's block with
// PyTorch's (python_session.hpp), so a slow spell of the machine (seconds
// long on these shared VMs) falls on both: small shapes take a fraction of
// a millisecond, where one preempted run moves a median of a few dozen, so
// 500 runs each in 10 rounds; large ones one run a round.
struct Rounds {
  int rounds, runs;
};
Rounds rounds_for(const bench::Shape& s) {
  if (s.n >= 2048) return {5, 1};
  if (s.n >= 512) return {7, 1};
  return {10, 50};
}

// Peak memory of the process while one trace of `sc` is computed and held,
// measured on its own, after the race (whose GEMM rounds and warm-ups would
// count too) has handed its memory back.
double trace_peak_mb(const attn::Scenario& sc) {
  malloc_trim(0);
  bench::reset_peak();
  attn::Trace t = attn::compute_trace(sc);
  return bench::peak_mb();
}

struct Race {
  Timing ours;
  Peer torch;
  double limit = 0;  // the GEMM rate measured in the same rounds (large shapes), GFLOP/s
};

// attnviz's full trace and PyTorch's (when installed) on one shape,
// alternating blocks of runs; PyTorch's peak memory from its own process.
// At the large shapes each round also measures the GEMM limit, so a slow
// spell of the machine counts against the limit as much as against the
// trace (its matrices are made and freed in the round: they never coexist
// with a trace, so they add nothing to the peak).
Race race(const bench::Shape& s, bool causal, int cores) {
  const attn::Scenario sc = bench::scene(s, causal);
  bench::PythonSession torch(std::string(ATTNVIZ_BENCH_DIR) + "/torch_peer.py",
                             {std::to_string(s.n), std::to_string(s.d_model), std::to_string(s.heads), causal ? "1" : "0"});
  Peer p;
  p.ok = torch.ok();
  if (!p.ok) p.note = torch.ready().value("error", "python3 or torch not available");
  p.blas = torch.ready().value("blas", "");
  p.version = torch.ready().value("torch", "");
  auto ours = [&] { attn::Trace tr = attn::compute_trace(sc); };
  std::vector<double> ours_ms, theirs_ms, limits;
  const Rounds r = rounds_for(s);
  for (int round = 0; round < r.rounds; ++round) {
    if (s.n >= 512) limits.push_back(best_gemm_gflops(cores, 1));
    warm_up(ours);
    time_into(ours_ms, r.runs, ours);
    if (!p.ok) continue;
    const nlohmann::json answer = torch.request("run " + std::to_string(r.runs));
    if (!answer.contains("ms")) {
      p.ok = false;
      p.note = "PyTorch stopped answering";
      continue;
    }
    for (double ms : answer["ms"]) theirs_ms.push_back(ms);
  }
  p.t = timing_of(theirs_ms);
  if (p.ok) p.peak_mb = torch.request("peak").value("peak_mb", 0.0);
  return {timing_of(ours_ms), p, timing_of(limits).median};
}

// Runs of each edit (and of the full trace it is compared with).
int repeats_for(const bench::Shape& s) { return s.n >= 2048 ? 3 : s.n >= 512 ? 5 : 500; }

}  // namespace

// Modern attention at the largest shape: grouped-query heads (12 query
// heads on 4 key/value heads) against 12 full heads, with RoPE and a sliding
// window, in alternating rounds so a slow spell of the machine falls on all.
void modern_table() {
  const bench::Shape s{2048, 768, 12};
  struct Variant {
    const char* name;
    attn::Scenario scene;
  };
  const Variant variants[] = {{"12 heads (MHA), causal", bench::modern_scene(s, 12, false, 0)},
                              {"12 q / 4 kv (GQA)", bench::modern_scene(s, 4, false, 0)},
                              {"12 heads + RoPE", bench::modern_scene(s, 12, true, 0)},
                              {"12 q / 4 kv + RoPE", bench::modern_scene(s, 4, true, 0)},
                              {"12 q / 1 kv (MQA) + RoPE", bench::modern_scene(s, 1, true, 0)},
                              {"GQA + RoPE + window 512", bench::modern_scene(s, 4, true, 512)}};
  constexpr int kVariants = sizeof variants / sizeof variants[0];
  std::vector<double> ms[kVariants];
  for (int round = 0; round < 3; ++round)
    for (int v = 0; v < kVariants; ++v) {
      auto run = [&] { attn::Trace t = attn::compute_trace(variants[v].scene); };
      warm_up(run);
      time_into(ms[v], 1, run);
    }
  std::printf("\nModern attention at (2048,768,12): full trace (compute_trace), median of 3 alternating rounds\n");
  std::printf("%-28s %10s %18s %14s\n", "variant", "ms", "spread", "vs MHA");
  const double mha = timing_of(ms[0]).median;
  for (int v = 0; v < kVariants; ++v) {
    const Timing t = timing_of(ms[v]);
    char spread[48];
    std::snprintf(spread, sizeof spread, "%.1f-%.1f", t.min, t.max);
    std::printf("%-28s %10.1f %18s %13.2fx\n", variants[v].name, t.median, spread, t.median / mha);
  }
  std::printf("vs MHA = time / the 12-head causal trace's (target for 12 q / 4 kv: <= 1.00)\n");
}

// `core_bench --write-scene N D H FILE`: the benchmark's causal scene as a
// scenario file, so the app benchmark opens exactly the shapes measured here.
int write_scene(int n, int d, int h, const char* path) {
  attn::io::ScenarioFile f;
  f.scenario = bench::scene({n, d, h}, true);
  f.title = "benchmark scene " + std::to_string(n) + " tokens, d_model " + std::to_string(d) + ", " +
            std::to_string(h) + " heads";
  attn::io::save_scenario(path, f);
  return 0;
}

// `core_bench --profile N D H COUNT [none]`: COUNT full traces of one shape
// (causal, or unmasked with `none`) and nothing else, to run under perf
// (`perf record -g core_bench --profile ...`).
int profile(int n, int d, int h, int count, bool causal) {
  const attn::Scenario sc = bench::scene({n, d, h}, causal);
  // The first trace (cold memory, the pool starting) is timed apart.
  const Timing t = time_runs(std::max(1, count - 1), [&] { attn::Trace tr = attn::compute_trace(sc); });
  std::printf("(%d,%d,%d)%s: %d traces after a first, median %.3f ms (%.3f-%.3f)\n", n, d, h, causal ? " causal" : "",
              std::max(1, count - 1), t.median, t.min, t.max);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--modern") {  // the modern-attention table alone
    modern_table();
    return 0;
  }
  if (argc == 6 && std::string(argv[1]) == "--write-scene")
    return write_scene(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), argv[5]);
  if ((argc == 6 || argc == 7) && std::string(argv[1]) == "--profile")
    return profile(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]),
                   argc == 6 || std::string(argv[6]) != "none");
  // The CPUs this process may use (affinity mask, cgroup quota), as the core counts them.
  const int cores = attn::usable_cores();
  std::printf("attnviz core benchmark (%d CPUs usable of %ld online)\n\n", cores,
              static_cast<long>(::sysconf(_SC_NPROCESSORS_ONLN)));
  const std::string kernels = bench::pin_openblas_kernels();
  const double eigen_one = gemm_gflops(1), eigen_all = gemm_gflops(cores);
  const double blas_one = gemm_gflops(1, 5, Gemm::OpenBlas), blas_all = gemm_gflops(cores, 5, Gemm::OpenBlas);
  const double limit = std::max(eigen_all, blas_all);
  std::printf("Limit: double GEMM 2048x768 * 768x2304, the better of:\n");
  std::printf("  Eigen (this build, %s): %.1f GFLOP/s on %d cores, %.1f on one\n", attn::launch::built_for(), eigen_all,
              cores, eigen_one);
  const std::string pinned = kernels.empty() ? "" : ", OPENBLAS_CORETYPE=" + kernels;
  if (bench::openblas().dgemm)
    std::printf("  OpenBLAS (%s kernels%s): %.1f GFLOP/s on %d cores, %.1f on one\n", bench::openblas().core.c_str(),
                pinned.c_str(), blas_all, cores, blas_one);
  else
    std::printf("  OpenBLAS: not installed (libopenblas0), so Eigen is the yardstick\n");
  std::printf("\n");

  std::printf("Core: full trace (compute_trace), self-attention\n");
  std::printf("%-18s %-7s %10s %18s %9s %8s %8s %10s | %10s %9s %8s\n", "shape (n,d,h)", "mask", "ms", "spread", "GFLOP/s",
              "limit", "of GEMM", "peak MB", "torch ms", "ratio", "torch MB");
  for (const bench::Shape& s : bench::shapes())
    for (bool causal : {false, true}) {
      const Race r = race(s, causal, cores);
      const Timing& t = r.ours;
      const Peer& p = r.torch;
      const double peak = trace_peak_mb(bench::scene(s, causal));
      const double gflops = bench::flops(s) / (t.median * 1e6);
      const double row_limit = r.limit > 0 ? r.limit : limit;
      char shape[32], spread[48];
      std::snprintf(shape, sizeof shape, "(%d,%d,%d)", s.n, s.d_model, s.heads);
      std::snprintf(spread, sizeof spread, "%.2f-%.2f", t.min, t.max);
      std::printf("%-18s %-7s %10.2f %18s %9.1f %8.1f %7.0f%% %10.0f | ", shape, causal ? "causal" : "none", t.median, spread,
                  gflops, row_limit, 100 * gflops / row_limit, peak);
      if (p.ok) std::printf("%10.2f %8.2fx %8.0f\n", p.t.median, t.median / p.t.median, p.peak_mb);
      else std::printf("%s\n", p.note.c_str());
      report_peer_blas(p.blas, p.version);
    }
  std::printf("\nms: median of every run (spread: fastest-slowest), in rounds alternating with PyTorch's, each block after 30 ms of untimed runs\n");
  std::printf("ratio = attnviz time / torch time (target <= 0.7); of GEMM = GFLOP/s as a share of limit, the all-core GEMM rate (at the two large shapes measured once a round with the trace, else the one above; target >= 60%% there)\n\n");

  std::printf("Edits: time from one edit to its updated trace (median ms)\n");
  std::printf("%-18s %12s %12s %12s %12s %12s %14s\n", "shape (n,d,h)", "full", "X value", "W_Q value", "mask cell",
              "rename", "median/full");
  for (const bench::Shape& s : bench::shapes()) {
    const attn::Scenario causal = bench::scene(s, true);
    std::vector<double> row;
    row.push_back(time_runs(repeats_for(s), [&] { attn::Trace t = attn::compute_trace(causal); }).median);
    for (const bench::EditKind kind : {bench::EditKind::XValue, bench::EditKind::WqValue, bench::EditKind::MaskCell,
                                       bench::EditKind::Rename}) {
      const attn::Scenario base = bench::before_edit(causal, kind);
      const attn::Trace before = attn::compute_trace(base);
      const attn::Scenario edited = bench::edited(base, kind);
      row.push_back(time_runs(repeats_for(s), [&] { attn::Trace t = bench::update(before, base, edited); }).median);
    }
    std::vector<double> edits(row.begin() + 1, row.end());
    std::sort(edits.begin(), edits.end());
    const double median = (edits[1] + edits[2]) / 2;
    char shape[32];
    std::snprintf(shape, sizeof shape, "(%d,%d,%d)", s.n, s.d_model, s.heads);
    std::printf("%-18s %12.2f %12.2f %12.2f %12.2f %12.2f %13.0f%%\n", shape, row[0], row[1], row[2], row[3], row[4],
                100 * median / row[0]);
  }
  std::printf("\nmedian/full: the median of the four edits as a share of a full recompute (target <= 25%% at (512,512,8))\n");
  modern_table();
  return 0;
}
