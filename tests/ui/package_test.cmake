# CTest driver: builds the .deb with CPack into a scratch folder and checks
# that it holds both programs, the scenes and lessons, the desktop entry
# and the icon, and declares its dependencies. Usage:
#   cmake -DBUILD=... -DOUT=... -P package_test.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND cpack -B "${OUT}" WORKING_DIRECTORY "${BUILD}" RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "cpack failed (${code}): ${out}${err}")
endif()
file(GLOB debs "${OUT}/*.deb")
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${OUT}, found ${n}")
endif()
execute_process(COMMAND dpkg-deb -c ${debs} OUTPUT_VARIABLE listing RESULT_VARIABLE code)
foreach(f usr/bin/attnviz usr/bin/attn usr/share/attnviz/scenarios/default.json usr/share/applications/attnviz.desktop
          usr/share/icons/hicolor/scalable/apps/attnviz.svg)
  string(FIND "${listing}" "./${f}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the .deb lacks ${f}")
  endif()
endforeach()
execute_process(COMMAND dpkg-deb -f ${debs} Depends OUTPUT_VARIABLE depends)
foreach(d fonts-dejavu-core libglfw3)
  string(FIND "${depends}" "${d}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the .deb does not depend on ${d}: ${depends}")
  endif()
endforeach()
