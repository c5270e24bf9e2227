# Instruction set. The arithmetic is Eigen (header-only), so its speed is
# decided here: SSE2 (x86-64 baseline) runs everywhere; x86-64-v3 (AVX2 +
# FMA) runs the GEMMs about 2.5x faster. Flags are set for the whole build
# (never per file: Eigen instantiations compiled two ways in one program
# would break the one-definition rule).
#   ATTNVIZ_CPU=auto       tuned when the machine building it has AVX2 and FMA
#                          (a local build runs where it was built)
#   ATTNVIZ_CPU=baseline   runs on any x86-64: what `make package` uses, so an
#                          installed .deb works on a lab machine without AVX2
#   ATTNVIZ_CPU=x86-64-v3  tuned, whatever the building machine has
set(ATTNVIZ_CPU auto CACHE STRING "Instruction set: auto, baseline or x86-64-v3")
set_property(CACHE ATTNVIZ_CPU PROPERTY STRINGS auto baseline x86-64-v3)

set(attnviz_tuned OFF)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  if(ATTNVIZ_CPU STREQUAL "x86-64-v3")
    set(attnviz_tuned ON)
  elseif(ATTNVIZ_CPU STREQUAL "auto")
    include(CheckCXXSourceRuns)
    check_cxx_source_runs("
      int main() { __builtin_cpu_init();
        return __builtin_cpu_supports(\"avx2\") && __builtin_cpu_supports(\"fma\") ? 0 : 1; }"
      ATTNVIZ_BUILD_MACHINE_HAS_AVX2)
    set(attnviz_tuned ${ATTNVIZ_BUILD_MACHINE_HAS_AVX2})
  endif()
endif()
if(attnviz_tuned)
  # -ffp-contract=off: the compiler may not fuse a*b+c on its own, so plain
  # arithmetic (layout edges, explanations) rounds exactly as in a baseline
  # build; Eigen's kernels still use FMA through explicit intrinsics.
  add_compile_options(-march=x86-64-v3 -ffp-contract=off)
  message(STATUS "attnviz: tuned for x86-64-v3 (AVX2, FMA); ATTNVIZ_CPU=baseline builds for any x86-64")
else()
  message(STATUS "attnviz: baseline x86-64 instruction set")
endif()
