// The benchmarks' fairness about BLAS: the GEMM rate a trace is measured
// against must be the best this machine reaches, and the PyTorch peer must
// run the kernels the CPU has.
//
// OpenBLAS picks its kernels from the CPU's family and model. On a virtual
// CPU that hides its model ("Intel Xeon Processor") it falls back to its
// oldest x86-64 kernels (Prescott, SSE3): measured on this project's 2-core
// AVX-512 VM, a double GEMM at 10-15 GFLOP/s instead of 60 per core, and
// Debian's PyTorch, which runs on it, 2.2x slower. Setting
// OPENBLAS_CORETYPE from the CPU's own feature flags, before any OpenBLAS is
// loaded (here, and in the Python peers, which inherit the environment),
// gives both the kernels the CPU really runs. A value the user set is kept.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "tuned_copy.hpp"

namespace bench {

// The OpenBLAS kernel set for this CPU's instruction set (asked as the
// launcher asks, app/launch/tuned_copy.hpp), or "" when OpenBLAS's own
// choice should stand (no AVX2).
inline std::string openblas_coretype_for_cpu() {
  if (attn::launch::cpu_runs("x86-64-v4")) return "SKYLAKEX";
  if (attn::launch::cpu_runs("x86-64-v3")) return "HASWELL";
  return "";
}

// Sets OPENBLAS_CORETYPE for this process and its children unless already
// set; returns what OpenBLAS will use ("" : its own detection).
inline std::string pin_openblas_kernels() {
  if (const char* set = std::getenv("OPENBLAS_CORETYPE")) return set;
  const std::string core = openblas_coretype_for_cpu();
  if (!core.empty()) setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
  return core;
}

// OpenBLAS's cblas_dgemm, loaded at run time (the core never links a BLAS:
// this is the yardstick only). Null when no OpenBLAS is installed.
struct OpenBlas {
  using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*,
                         int);
  Dgemm dgemm = nullptr;
  std::string core;  // the kernels it chose (openblas_get_corename)
};

inline const OpenBlas& openblas() {
  static const OpenBlas loaded = [] {
    OpenBlas b;
    for (const char* name : {"libopenblas.so.0", "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
                             "/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0"}) {
      void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!h) continue;
      b.dgemm = reinterpret_cast<OpenBlas::Dgemm>(dlsym(h, "cblas_dgemm"));
      // One thread per call: the benchmark splits the product over its own threads.
      if (auto set_threads = reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"))) set_threads(1);
      if (auto name_of = reinterpret_cast<char* (*)()>(dlsym(h, "openblas_get_corename"))) b.core = name_of();
      if (b.dgemm) break;
    }
    return b;
  }();
  return loaded;
}

// C(:, cols) = A · B(:, cols) with OpenBLAS on one thread, column-major.
inline void openblas_product(const double* a, const double* b, double* c, int m, int k, int n) {
  constexpr int kColMajor = 102, kNoTrans = 111;
  openblas().dgemm(kColMajor, kNoTrans, kNoTrans, m, n, k, 1.0, a, m, b, k, 0.0, c, m);
}

}  // namespace bench
