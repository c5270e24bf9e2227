# Installation and the .deb: binaries in bin, the scenes, lessons and docs
# in share/attnviz (found at run time relative to the executable, so the
# package works wherever it is installed), a desktop entry and an icon.
include(GNUInstallDirs)
install(TARGETS attn RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET attnviz)
  install(TARGETS attnviz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/attnviz.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/attnviz.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
# The tuned copies (app/launch/tuned_copy.hpp): `make package` builds attn
# and attnviz again for x86-64-v3 and for x86-64-v4, each in a folder of its
# own, and names them here; the programs in bin become the most capable copy
# at start-up (AVX2, or AVX-512).
set(ATTNVIZ_TUNED_BUILD "" CACHE PATH "A build for x86-64-v3 whose attn and attnviz are installed as tuned copies")
set(ATTNVIZ_TUNED_V4_BUILD "" CACHE PATH "A build for x86-64-v4 whose attn and attnviz are installed as tuned copies")
foreach(level IN ITEMS x86-64-v3 x86-64-v4)
  if(level STREQUAL "x86-64-v3")
    set(dir "${ATTNVIZ_TUNED_BUILD}")
  else()
    set(dir "${ATTNVIZ_TUNED_V4_BUILD}")
  endif()
  if(NOT dir)
    continue()
  endif()
  install(PROGRAMS ${dir}/app/cli/attn DESTINATION lib/attnviz/${level})
  if(TARGET attnviz)
    install(PROGRAMS ${dir}/app/viz/attnviz DESTINATION lib/attnviz/${level})
  endif()
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/scenarios DESTINATION ${CMAKE_INSTALL_DATADIR}/attnviz)
if(EXISTS ${PROJECT_SOURCE_DIR}/assets/lessons)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lessons DESTINATION ${CMAKE_INSTALL_DATADIR}/attnviz)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/lessons.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME attnviz)
set(CPACK_PACKAGE_VENDOR "attnviz")
set(CPACK_PACKAGE_CONTACT "attnviz maintainers <attnviz@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "See attention compute, one step at a time")
set(CPACK_PACKAGE_DESCRIPTION "attnviz shows how attention computes as coloured grids with real numbers, \
animated step by step, editable, with lessons that ask students to predict before they reveal.")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
# Shared-library dependencies are read off the binaries; the fonts are data.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core, libgl1, libcgif0")
set(CPACK_STRIP_FILES ON)
include(CPack)
