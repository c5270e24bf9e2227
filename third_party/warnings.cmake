# Per-target warnings (never global flags), plus optional sanitizers.
function(attnviz_target_flags target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${ATTNVIZ_WERROR}>:/WX>)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
      $<$<BOOL:${ATTNVIZ_WERROR}>:-Werror>)
  endif()
  # Both sanitized builds leave out ASan's use-after-scope checks (a local
  # read after its block ended): they cost a third of the compile time here
  # (test_app_model's first batch 80 s -> 53 s, attn_hf's 81 s -> 56 s),
  # which kept CI over its 40 minutes. Heap, global and stack overflows,
  # use-after-free, leaks and UB are all still caught.
  if(ATTNVIZ_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-address-use-after-scope)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(ATTNVIZ_SANITIZE AND NOT MSVC)
    # UB is fatal (no-recover) so a report fails the test that caused it.
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=undefined
                                             -fno-omit-frame-pointer -fno-sanitize-address-use-after-scope)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# Every project target: its flags, and the shared precompiled headers
# (build_speed.cmake). The core and what it links alone must not see
# nlohmann-json: they take the Eigen-only headers.
set(ATTNVIZ_EIGEN_ONLY_TARGETS attn_core attn_train attn_reference)
set(ATTNVIZ_NO_PCH_TARGETS attn_launch attnviz_python_reader)  # no Eigen on their include paths
function(attnviz_warnings target)
  attnviz_target_flags(${target})
  if(target IN_LIST ATTNVIZ_NO_PCH_TARGETS)
    return()
  endif()
  if(target IN_LIST ATTNVIZ_EIGEN_ONLY_TARGETS)
    attnviz_precompile(${target} eigen)
  elseif(target MATCHES "^test_" AND TARGET doctest::doctest)
    attnviz_test_code_flags(${target})
    attnviz_precompile(${target} test)
  else()
    attnviz_precompile(${target} full)
  endif()
endfunction()
