// GLFW + OpenGL 3.3 core + Dear ImGui set-up. Checks for a display before
// touching GLFW so a headless machine gets a clear message, not a crash.
#include "gl/platform.hpp"

#include <cfloat>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include "gl/gl.hpp"
#include <GLFW/glfw3.h>

namespace viz {

namespace {

// Sanitizer builds only: Mesa unloads its driver at exit, after which
// LeakSanitizer cannot name the library its few hundred leaked bytes came
// from, and the suppressions (tests/lsan.supp, by library) cannot match.
// Loading the driver libraries with RTLD_NODELETE keeps them named.
// Also, in a headless run (a screenshot or an export that exits by itself,
// where LeakSanitizer runs at exit): llvmpipe's render threads are turned
// off. LSan's stop-the-world tracer has crashed (signal 11 in the tracer)
// while they run. Windowed runs keep them, for speed.
void keep_gl_driver_loaded(bool headless) {
#ifdef ATTNVIZ_SANITIZE_BUILD
  if (headless) setenv("LP_NUM_THREADS", "0", 0);
  for (const char* lib : {"libGLX_mesa.so.0", "libGLdispatch.so.0", "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"})
    dlopen(lib, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
#else
  (void)headless;
#endif
}

}  // namespace

Platform::Platform(const PlatformOptions& o) {
  keep_gl_driver_loaded(!o.visible);
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland))
    throw NoDisplayError("no display found (DISPLAY is not set)");
  if (!glfwInit()) throw NoDisplayError("could not connect to the display " + std::string(display ? display : ""));
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, o.visible ? GLFW_TRUE : GLFW_FALSE);
  int width = o.width, height = o.height;
  if (o.visible && o.fit_screen) {
    // Never open larger than the screen (a 1366x768 laptop, a projector).
    if (const GLFWvidmode* mode = glfwGetVideoMode(glfwGetPrimaryMonitor())) {
      width = std::min(width, mode->width * 95 / 100);
      height = std::min(height, mode->height * 90 / 100);
    }
  }
  window_ = glfwCreateWindow(width, height, o.title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw NoDisplayError("could not open a window with OpenGL 3.3 on this display");
  }
  visible_ = o.visible;
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(o.vsync ? 1 : 0);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, &Platform::on_drop);
  glfwSetWindowCloseCallback(window_, &Platform::on_close);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  // Every panel is placed from the window size each frame, so there is no
  // layout worth saving: never write imgui.ini into the user's folder.
  io.IniFilename = nullptr;
  // No keyboard navigation: arrows, Space and PageUp/PageDown drive the animation.
  io.ConfigWindowsMoveFromTitleBarOnly = true;
  ImGui::StyleColorsLight();
  imgui_glfw_ = ImGui_ImplGlfw_InitForOpenGL(window_, true);
  // After the backend's own: keys pass through on_key, which hands them on.
  glfwSetKeyCallback(window_, &Platform::on_key);
  imgui_gl_ = ImGui_ImplOpenGL3_Init("#version 330 core");
}

Platform::~Platform() {
  if (imgui_gl_) ImGui_ImplOpenGL3_Shutdown();
  if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
  if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Platform::should_close() const { return glfwWindowShouldClose(window_); }
void Platform::cancel_close() { glfwSetWindowShouldClose(window_, GLFW_FALSE); }

void Platform::begin_frame(int display_w, int display_h) {
  ImGui_ImplOpenGL3_NewFrame();
  if (display_w > 0 && display_h > 0) {
    // An export frame, drawn offscreen between two window frames. The GLFW
    // backend is not asked for input here: it hands a click over to exactly
    // one frame, and an export frame would swallow it (a Cancel click in the
    // progress dialog would be lost). The window's next frame gets it.
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {static_cast<float>(display_w), static_cast<float>(display_h)};
    io.DisplayFramebufferScale = {1, 1};
    io.DeltaTime = 1.0f / 60;
    io.MousePos = {-FLT_MAX, -FLT_MAX};  // no hover outline in an exported picture
  } else {
    for (const KeyHold::Event& e : keys_.frame_start()) ImGui_ImplGlfw_KeyCallback(window_, e.key, e.scancode, GLFW_RELEASE, e.mods);
    ImGui_ImplGlfw_NewFrame();
    // The modifiers as the keys are held (a tapped Ctrl is still down for
    // the frame that sees its Z), not as the keyboard is now.
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
    io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
  }
  ImGui::NewFrame();
}

void Platform::end_frame(int fb_w, int fb_h) {
  ImGui::Render();
  int w = fb_w, h = fb_h;
  if (w <= 0 || h <= 0) glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(clear_[0], clear_[1], clear_[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Platform::swap() { glfwSwapBuffers(window_); }

void Platform::wait(double timeout) const {
  if (timeout < 0) glfwWaitEvents();
  else glfwWaitEventsTimeout(timeout);
}

void Platform::poll() const { glfwPollEvents(); }

void Platform::wake() { glfwPostEmptyEvent(); }

void Platform::framebuffer_size(int* w, int* h) const { glfwGetFramebufferSize(window_, w, h); }

void Platform::set_fullscreen(bool on) {
  if (!visible_) return;
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (on && mode) {
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (!on && windowed_[2] > 0) {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], GLFW_DONT_CARE);
  }
}

float Platform::content_scale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return x > 0 ? x : 1;
}

std::vector<std::string> Platform::take_drops() { return std::exchange(drops_, {}); }

bool Platform::take_close_request() { return std::exchange(close_requested_, false); }

void Platform::on_drop(GLFWwindow* w, int count, const char** paths) {
  auto* self = static_cast<Platform*>(glfwGetWindowUserPointer(w));
  for (int i = 0; i < count; ++i) self->drops_.emplace_back(paths[i]);
}

void Platform::on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  auto* self = static_cast<Platform*>(glfwGetWindowUserPointer(w));
  if (action != GLFW_REPEAT && !self->keys_.on_key({key, scancode, mods}, action == GLFW_PRESS)) return;
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

void Platform::on_close(GLFWwindow* w) {
  // The app decides: it asks about unsaved edits and closes itself.
  auto* self = static_cast<Platform*>(glfwGetWindowUserPointer(w));
  glfwSetWindowShouldClose(w, GLFW_FALSE);
  self->close_requested_ = true;
}

}  // namespace viz
