# CTest driver: installs the build into a fresh prefix, then runs the
# installed attnviz from another folder (no source tree in sight of its
# working directory) and checks that it found its own scenes and lessons
# there and wrote a screenshot. Usage:
#   cmake -DBUILD=... -DPREFIX=... -DXVFB_RUN=... -P install_test.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}" RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${code})")
endif()
foreach(f bin/attnviz bin/attn share/applications/attnviz.desktop share/icons/hicolor/scalable/apps/attnviz.svg
          share/attnviz/scenarios/default.json)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
set(work "${PREFIX}/elsewhere")
file(MAKE_DIRECTORY "${work}")
execute_process(
  COMMAND ${XVFB_RUN} -a -n 290 -s "-screen 0 1280x800x24" "${PREFIX}/bin/attnviz" --start-page --size 1200x760
          --screenshot shot.png --dump-state state.json --dump-layout layout.json
  WORKING_DIRECTORY "${work}" RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the installed attnviz failed (${code}): ${out}${err}")
endif()
if(NOT EXISTS "${work}/shot.png")
  message(FATAL_ERROR "the installed attnviz wrote no screenshot")
endif()
file(READ "${work}/state.json" state)
string(JSON assets GET "${state}" assets_dir)
if(NOT assets STREQUAL "${PREFIX}/share/attnviz")
  message(FATAL_ERROR "the installed attnviz looked for its assets in ${assets}, not ${PREFIX}/share/attnviz")
endif()
file(GLOB lessons "${PREFIX}/share/attnviz/lessons/*.json")
file(READ "${work}/layout.json" layout)
foreach(lesson ${lessons})
  get_filename_component(id "${lesson}" NAME_WE)
  string(FIND "${layout}" "\"start:${id}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the start page of the installed attnviz does not list lesson ${id}")
  endif()
endforeach()
execute_process(COMMAND "${PREFIX}/bin/attn" check "${PREFIX}/share/attnviz/scenarios/default.json"
                RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the installed attn failed on an installed scene")
endif()
