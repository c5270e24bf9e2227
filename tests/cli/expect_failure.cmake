# CTest driver: runs `attn` and checks a failure the way a script would see it.
# Passes only when the exit code is CODE, stdout is empty, stderr is exactly
# one line (LINES lines) starting "attn: " (then "FILE: " when FILE is set) and matching
# STDERR_REGEX. Usage:
#   cmake -DEXE=... -DARGS="check|file.json" -DCODE=2 -DSTDERR_REGEX=... [-DFILE=...] -P expect_failure.cmake
string(REPLACE "|" ";" arg_list "${ARGS}")
execute_process(COMMAND "${EXE}" ${arg_list}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)

set(problems "")
if(NOT "${code}" STREQUAL "${CODE}")
  string(APPEND problems "exit status is '${code}', expected ${CODE}\n")
endif()
if(NOT "${out}" STREQUAL "")
  string(APPEND problems "stdout should be empty on failure\n")
endif()
if(NOT DEFINED LINES OR "${LINES}" STREQUAL "")
  set(LINES 1)  # one problem, one line; `attn lesson check` lists one per problem
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines line_count)
if(NOT line_count EQUAL LINES OR NOT err MATCHES "\n$")
  string(APPEND problems "stderr should be exactly ${LINES} line(s), got ${line_count} newline(s)\n")
endif()
set(prefix "attn: ")
if(DEFINED FILE AND NOT "${FILE}" STREQUAL "")
  set(prefix "attn: ${FILE}: ")
endif()
string(FIND "${err}" "${prefix}" at)
if(NOT at EQUAL 0)
  string(APPEND problems "stderr should start with '${prefix}'\n")
endif()
# Match against the line without its newline so "$" anchors at its end.
string(REGEX REPLACE "\n$" "" err_line "${err}")
if(NOT err_line MATCHES "${STDERR_REGEX}")
  string(APPEND problems "stderr does not match: ${STDERR_REGEX}\n")
endif()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "attn ${ARGS}\n${problems}--- stderr ---\n${err}--- stdout ---\n${out}")
endif()
message(STATUS "ok: ${err}")
