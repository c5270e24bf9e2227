# Dependencies: Debian's packages first, then a FetchContent fallback pinned to
# the same versions Debian 12 ships, for platforms without them.
include(FetchContent)

# --- Eigen 3.4 (core) -------------------------------------------------------
find_package(Eigen3 3.4 QUIET NO_MODULE)
if(NOT TARGET Eigen3::Eigen)
  message(STATUS "attnviz: Eigen3 not found, fetching 3.4.0")
  FetchContent_Declare(eigen
    URL https://gitlab.com/libeigen/eigen/-/archive/3.4.0/eigen-3.4.0.tar.gz)
  FetchContent_GetProperties(eigen)
  if(NOT eigen_POPULATED)
    FetchContent_Populate(eigen)
  endif()
  add_library(Eigen3::Eigen INTERFACE IMPORTED)
  target_include_directories(Eigen3::Eigen INTERFACE ${eigen_SOURCE_DIR})
endif()

# --- nlohmann-json 3.11.2 (file formats) --------------------------------------
find_package(nlohmann_json 3.11 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  message(STATUS "attnviz: nlohmann_json not found, fetching 3.11.2")
  FetchContent_Declare(nlohmann_json
    URL https://github.com/nlohmann/json/releases/download/v3.11.2/json.tar.xz)
  FetchContent_MakeAvailable(nlohmann_json)
endif()

# --- simdjson 3.0 (fast reading of large files; optional) ----------------------
# Debian's libsimdjson-dev. Without it, files are read by nlohmann alone.
find_package(simdjson 3.0 QUIET)
if(NOT TARGET simdjson::simdjson)
  message(STATUS "attnviz: simdjson not found; large files are read with nlohmann-json only")
endif()

# --- PCRE2 (Unicode regular expressions: the tokenizers' split patterns) -------
# Debian's libpcre2-dev. Required: GPT-2's pattern needs \p{L} and \p{N}.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PCRE2 QUIET IMPORTED_TARGET libpcre2-8)
endif()
if(NOT PCRE2_FOUND)
  message(FATAL_ERROR "attnviz: PCRE2 not found; install libpcre2-dev (make deps does)")
endif()
add_library(attnviz_pcre2 INTERFACE)
target_link_libraries(attnviz_pcre2 INTERFACE PkgConfig::PCRE2)
target_compile_definitions(attnviz_pcre2 INTERFACE PCRE2_CODE_UNIT_WIDTH=8)

# --- utf8proc (Unicode normalization and categories for the tokenizers) ------
# Debian's libutf8proc-dev: NFC/NFD/NFKC/NFKD and general categories.
if(PkgConfig_FOUND)
  pkg_check_modules(UTF8PROC QUIET IMPORTED_TARGET libutf8proc)
endif()
if(NOT UTF8PROC_FOUND)
  message(FATAL_ERROR "attnviz: utf8proc not found; install libutf8proc-dev (make deps does)")
endif()
add_library(attnviz_utf8proc INTERFACE)
target_link_libraries(attnviz_utf8proc INTERFACE PkgConfig::UTF8PROC)

# --- CLI11 2.1.2 (argument parsing) -------------------------------------------
find_package(CLI11 2.1 QUIET)
if(NOT TARGET CLI11::CLI11)
  message(STATUS "attnviz: CLI11 not found, fetching 2.1.2")
  FetchContent_Declare(cli11
    GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git GIT_TAG v2.1.2)
  FetchContent_MakeAvailable(cli11)
endif()

# --- doctest 2.4.9 (tests) ----------------------------------------------------
if(ATTNVIZ_BUILD_TESTS)
  find_package(doctest 2.4 QUIET)
  if(NOT TARGET doctest::doctest)
    message(STATUS "attnviz: doctest not found, fetching 2.4.9")
    FetchContent_Declare(doctest
      GIT_REPOSITORY https://github.com/doctest/doctest.git GIT_TAG v2.4.9)
    FetchContent_MakeAvailable(doctest)
    list(APPEND CMAKE_MODULE_PATH ${doctest_SOURCE_DIR}/scripts/cmake)
  endif()
endif()

# --- App only: OpenGL, GLFW 3.3, Dear ImGui 1.86, stb, cgif, cairo ------------
if(ATTNVIZ_BUILD_APP)
  set(OpenGL_GL_PREFERENCE GLVND)
  find_package(OpenGL REQUIRED)

  find_package(glfw3 3.3 QUIET)
  if(NOT TARGET glfw)
    message(STATUS "attnviz: GLFW not found, fetching 3.3.8")
    set(GLFW_BUILD_DOCS OFF CACHE BOOL "" FORCE)
    set(GLFW_BUILD_TESTS OFF CACHE BOOL "" FORCE)
    set(GLFW_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
    FetchContent_Declare(glfw GIT_REPOSITORY https://github.com/glfw/glfw.git GIT_TAG 3.3.8)
    FetchContent_MakeAvailable(glfw)
  endif()

  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui>=1.86)
  endif()
  add_library(attnviz_imgui INTERFACE)
  if(IMGUI_FOUND)
    # Debian's libimgui.a already holds the GLFW/OpenGL3 backends, stdlib and
    # FreeType helpers, linked against the system stb (-lstb from imgui.pc).
    target_link_libraries(attnviz_imgui INTERFACE PkgConfig::IMGUI glfw OpenGL::GL)
    find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb REQUIRED)
    target_include_directories(attnviz_imgui INTERFACE ${STB_INCLUDE_DIR})
    # stb_image alone, for tests that read pictures back without a window.
    add_library(attnviz_stb INTERFACE)
    target_include_directories(attnviz_stb INTERFACE ${STB_INCLUDE_DIR})
    target_link_libraries(attnviz_stb INTERFACE stb)
  else()
    message(STATUS "attnviz: imgui not found via pkg-config, fetching v1.86")
    FetchContent_Declare(imgui GIT_REPOSITORY https://github.com/ocornut/imgui.git GIT_TAG v1.86)
    FetchContent_Declare(stb GIT_REPOSITORY https://github.com/nothings/stb.git
      GIT_TAG 5736b15f7ea0ffb08dd38af21067c314d6a3aae9)
    FetchContent_MakeAvailable(imgui stb)
    add_library(attnviz_imgui_fetched STATIC
      ${imgui_SOURCE_DIR}/imgui.cpp ${imgui_SOURCE_DIR}/imgui_draw.cpp
      ${imgui_SOURCE_DIR}/imgui_tables.cpp ${imgui_SOURCE_DIR}/imgui_widgets.cpp
      ${imgui_SOURCE_DIR}/imgui_demo.cpp ${imgui_SOURCE_DIR}/misc/cpp/imgui_stdlib.cpp
      ${imgui_SOURCE_DIR}/backends/imgui_impl_glfw.cpp
      ${imgui_SOURCE_DIR}/backends/imgui_impl_opengl3.cpp)
    target_include_directories(attnviz_imgui_fetched PUBLIC
      ${imgui_SOURCE_DIR} ${imgui_SOURCE_DIR}/backends ${imgui_SOURCE_DIR}/misc/cpp ${stb_SOURCE_DIR})
    target_link_libraries(attnviz_imgui_fetched PUBLIC glfw OpenGL::GL)
    target_link_libraries(attnviz_imgui INTERFACE attnviz_imgui_fetched)
    file(WRITE ${CMAKE_BINARY_DIR}/attnviz_stb_image.c "#define STB_IMAGE_IMPLEMENTATION\n#include <stb_image.h>\n")
    add_library(attnviz_stb STATIC ${CMAKE_BINARY_DIR}/attnviz_stb_image.c)
    target_include_directories(attnviz_stb PUBLIC ${stb_SOURCE_DIR})
  endif()

  # cgif 0.3: the GIF encoder behind animation export (Debian libcgif-dev).
  if(PkgConfig_FOUND)
    pkg_check_modules(CGIF QUIET IMPORTED_TARGET cgif>=0.3)
  endif()
  add_library(attnviz_cgif INTERFACE)
  if(CGIF_FOUND)
    target_link_libraries(attnviz_cgif INTERFACE PkgConfig::CGIF)
  else()
    message(STATUS "attnviz: cgif not found via pkg-config, fetching V0.3.0")
    FetchContent_Declare(cgif GIT_REPOSITORY https://github.com/dloebl/cgif.git GIT_TAG V0.3.0)
    FetchContent_MakeAvailable(cgif)
    file(GLOB cgif_sources ${cgif_SOURCE_DIR}/src/*.c)
    add_library(attnviz_cgif_fetched STATIC ${cgif_sources})
    target_include_directories(attnviz_cgif_fetched PUBLIC ${cgif_SOURCE_DIR}/inc)
    target_link_libraries(attnviz_cgif INTERFACE attnviz_cgif_fetched)
  endif()

  # libpng: screenshots, slides and stills (Debian libpng-dev; zlib behind it
  # encodes ten times faster than stb_image_write). Not fetched: every
  # desktop system ships it.
  find_package(PNG 1.6 QUIET)
  if(NOT PNG_FOUND)
    message(FATAL_ERROR "attnviz: libpng 1.6 was not found; install libpng-dev (Debian/Ubuntu) or libpng-devel, "
                        "or configure with -DATTNVIZ_BUILD_APP=OFF")
  endif()

  # cpp-httplib: the class session's web server (Debian libcpp-httplib-dev,
  # a shared library; its flags name the TLS and compression it was built with).
  if(PkgConfig_FOUND)
    pkg_check_modules(HTTPLIB QUIET IMPORTED_TARGET cpp-httplib>=0.11)
  endif()
  if(NOT HTTPLIB_FOUND)
    message(FATAL_ERROR "attnviz: cpp-httplib 0.11 or later was not found (pkg-config cpp-httplib); "
                        "install libcpp-httplib-dev (Debian/Ubuntu), or configure with -DATTNVIZ_BUILD_APP=OFF")
  endif()

  # libqrencode: the QR code of the class session's join address on the
  # projector (Debian libqrencode-dev).
  if(PkgConfig_FOUND)
    pkg_check_modules(QRENCODE QUIET IMPORTED_TARGET libqrencode>=4)
  endif()
  if(NOT QRENCODE_FOUND)
    message(FATAL_ERROR "attnviz: libqrencode 4 was not found (pkg-config libqrencode); "
                        "install libqrencode-dev (Debian/Ubuntu), or configure with -DATTNVIZ_BUILD_APP=OFF")
  endif()

  # cairo (PDF surface): the slides' PDF (Debian libcairo2-dev). Not fetched:
  # cairo is a large meson build, and every desktop system ships it.
  if(PkgConfig_FOUND)
    pkg_check_modules(CAIRO QUIET IMPORTED_TARGET cairo-pdf>=1.14)
  endif()
  if(NOT CAIRO_FOUND)
    message(FATAL_ERROR "attnviz: cairo with its PDF surface was not found (pkg-config cairo-pdf); "
                        "install libcairo2-dev (Debian/Ubuntu) or cairo-devel, or configure with -DATTNVIZ_BUILD_APP=OFF")
  endif()
endif()
