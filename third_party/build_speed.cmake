# Build speed. Measured on the 2-core CI machine: a typical source file spent
# 2.7 of its 3.1 s parsing Eigen, nlohmann-json and the standard library.
#
# - Precompiled headers (GCC): those headers are parsed once per build into
#   two shared PCHs, reused by every target (REUSE_FROM): "eigen" (Eigen and
#   the standard library) for the core, which must not see nlohmann-json, and
#   "full" (with nlohmann-json) for everything above it, and "test" (with
#   doctest too) for the test executables. The PCH only saves
#   parsing: each file still includes what it uses, and a build with
#   -DATTNVIZ_PCH=OFF checks that it does.
# - ccache, when installed (install-deps.sh installs it), caches compiles
#   across build folders and clones (CCACHE_BASEDIR makes paths relative).
option(ATTNVIZ_PCH "Precompile the heavy third-party headers (GCC)" ON)
# - Unity builds: each target's sources are compiled eight to a translation
#   unit, so a batch pays once for the PCH, the template instantiations and
#   the code generation they share. A full build on 2 cores: about 12 min
#   with the PCH alone, under 5 with both. A file whose file-local names
#   clash with another's is compiled alone (SKIP_UNITY_BUILD_INCLUSION, with
#   the reason beside it); -DATTNVIZ_UNITY=OFF builds file by file. The
#   fuzz build batches too: file by file it took 6 of CI's 44 minutes.
option(ATTNVIZ_UNITY "Compile each target's sources in batches of eight" ON)
if(ATTNVIZ_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()

# - Test code at -O1 with small functions inlined (Release only): a test
#   batch spends four fifths of its compile in optimisation, and -O3 took
#   14.3 s for test_core's first batch where this takes 9.0. Tests check
#   results, not speed; the libraries they test stay at -O3, and inlining
#   keeps Eigen's expression templates from running as calls. Results are
#   the same bits: -ffp-contract=off, and no level reorders a floating-point
#   sum. The test PCH is built the same way (GCC takes the optimisation
#   level of a PCH it loads). -DATTNVIZ_FAST_TEST_BUILD=OFF builds the
#   tests at -O3.
option(ATTNVIZ_FAST_TEST_BUILD "Compile test code at -O1 -finline-small-functions in Release builds" ON)
function(attnviz_test_code_flags target)
  if(ATTNVIZ_FAST_TEST_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O1 -finline-small-functions>)
  endif()
endfunction()

find_program(ATTNVIZ_CCACHE ccache)
if(ATTNVIZ_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT DEFINED ENV{ATTNVIZ_NO_CCACHE})
  # pch_defines,time_macros: ccache may cache compiles that use a PCH.
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${ATTNVIZ_CCACHE})
  message(STATUS "attnviz: compiling through ccache")
endif()

set(attnviz_pch_on OFF)
if(ATTNVIZ_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT ATTNVIZ_FUZZ)
  set(attnviz_pch_on ON)
endif()

set(ATTNVIZ_PCH_STD <algorithm> <cmath> <cstdint> <functional> <map> <memory> <optional> <sstream> <string> <vector>)

# Gives `target` the shared precompiled headers: KIND is eigen or full.
# Called by attnviz_warnings for every project target (see warnings.cmake).
function(attnviz_precompile target kind)
  if(NOT attnviz_pch_on)
    return()
  endif()
  set(holder attnviz_pch_${kind})
  if(NOT TARGET ${holder})
    add_library(${holder} OBJECT ${PROJECT_SOURCE_DIR}/third_party/pch_holder.cpp)
    target_link_libraries(${holder} PRIVATE Eigen3::Eigen)
    if(kind STREQUAL "full")
      target_link_libraries(${holder} PRIVATE nlohmann_json::nlohmann_json)
      target_precompile_headers(${holder} PRIVATE <Eigen/Dense> <nlohmann/json.hpp> ${ATTNVIZ_PCH_STD})
    elseif(kind STREQUAL "test")
      # doctest's interface only: a main.cpp that defines DOCTEST_CONFIG_IMPLEMENT
      # still compiles the implementation when it includes the header again.
      target_link_libraries(${holder} PRIVATE nlohmann_json::nlohmann_json doctest::doctest)
      attnviz_test_code_flags(${holder})
      target_precompile_headers(${holder} PRIVATE <Eigen/Dense> <nlohmann/json.hpp> <doctest/doctest.h> ${ATTNVIZ_PCH_STD})
    else()
      target_precompile_headers(${holder} PRIVATE <Eigen/Dense> ${ATTNVIZ_PCH_STD})
    endif()
    attnviz_target_flags(${holder})
  endif()
  target_precompile_headers(${target} REUSE_FROM ${holder})
endfunction()
