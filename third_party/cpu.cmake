# Instruction set. The arithmetic is Eigen (header-only), so its speed is
# decided here: SSE2 (x86-64 baseline) runs everywhere; x86-64-v3 (AVX2 +
# FMA) runs the GEMMs about 2.5x faster. Flags are set for the whole build
# (never per file: Eigen instantiations compiled two ways in one program
# would break the one-definition rule).
#   ATTNVIZ_CPU=auto       the most the machine building it runs: x86-64-v4
#                          with AVX-512 (GCC), else x86-64-v3 with AVX2 and
#                          FMA (a local build runs where it was built)
#   ATTNVIZ_CPU=baseline   runs on any x86-64: what `make package` uses, so an
#                          installed .deb works on a lab machine without AVX2
#   ATTNVIZ_CPU=x86-64-v3  tuned, whatever the building machine has
#   ATTNVIZ_CPU=x86-64-v4  AVX-512 (F, BW, CD, DQ, VL): Eigen's double GEMM
#                          runs about 1.8x the v3 rate where the CPU has it
set(ATTNVIZ_CPU auto CACHE STRING "Instruction set: auto, baseline, x86-64-v3 or x86-64-v4")
set_property(CACHE ATTNVIZ_CPU PROPERTY STRINGS auto baseline x86-64-v3 x86-64-v4)

set(attnviz_tuned "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  if(ATTNVIZ_CPU STREQUAL "x86-64-v3" OR ATTNVIZ_CPU STREQUAL "x86-64-v4")
    set(attnviz_tuned ${ATTNVIZ_CPU})
  elseif(ATTNVIZ_CPU STREQUAL "auto")
    include(CheckCXXSourceRuns)
    check_cxx_source_runs("
      int main() { __builtin_cpu_init();
        return __builtin_cpu_supports(\"avx2\") && __builtin_cpu_supports(\"fma\") ? 0 : 1; }"
      ATTNVIZ_BUILD_MACHINE_HAS_AVX2)
    check_cxx_source_runs("
      int main() { __builtin_cpu_init(); return __builtin_cpu_supports(\"x86-64-v4\") ? 0 : 1; }"
      ATTNVIZ_BUILD_MACHINE_HAS_V4)
    if(ATTNVIZ_BUILD_MACHINE_HAS_V4 AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      set(attnviz_tuned x86-64-v4)
    elseif(ATTNVIZ_BUILD_MACHINE_HAS_AVX2)
      set(attnviz_tuned x86-64-v3)
    endif()
  endif()
endif()
if(attnviz_tuned)
  # -ffp-contract=off: the compiler may not fuse a*b+c on its own, so plain
  # arithmetic (layout edges, explanations) rounds exactly as in a baseline
  # build; Eigen's kernels still use FMA through explicit intrinsics.
  add_compile_options(-march=${attnviz_tuned} -ffp-contract=off)
  if(attnviz_tuned STREQUAL "x86-64-v4" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12's own AVX-512 headers (avx512fintrin.h: `__m512d __Y = __Y` in
    # _mm512_undefined_pd, on purpose) trip -W(maybe-)uninitialized wherever
    # Eigen's kernels inline them, so under -Werror no v4 build compiles.
    # The v3 and baseline builds, and clang's fuzz build, keep both warnings
    # for our own code.
    add_compile_options(-Wno-maybe-uninitialized -Wno-uninitialized)
  endif()
  message(STATUS "attnviz: tuned for ${attnviz_tuned}; ATTNVIZ_CPU=baseline builds for any x86-64")
else()
  message(STATUS "attnviz: baseline x86-64 instruction set")
endif()
