// The window, the GL context and Dear ImGui, owned together so they are torn
// down in the right order (ImGui backends, then the window, then GLFW).
// Construction fails with NoDisplayError when there is no display to open.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "model_names.hpp"
#include "model/animation/key_hold.hpp"

struct GLFWwindow;

namespace viz {

struct NoDisplayError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PlatformOptions {
  int width = 1600, height = 1000;
  bool visible = true;       // hidden for screenshots and benchmarks
  bool vsync = true;
  bool fit_screen = true;    // shrink the window to fit the screen
  std::string title = "attnviz";
};

class Platform {
 public:
  explicit Platform(const PlatformOptions& options);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  GLFWwindow* window() const { return window_; }
  bool should_close() const;
  void cancel_close();
  // display_w/h > 0: lay the frame out for that many pixels instead of the
  // window's, with no mouse (an export rendered into an offscreen target).
  void begin_frame(int display_w = 0, int display_h = 0);
  // Renders ImGui into the bound framebuffer (the back buffer unless an
  // export bound its own), of fb_w x fb_h pixels (0: the window's); no swap.
  void end_frame(int fb_w = 0, int fb_h = 0);
  // What shows where no window covers the screen (the theme's canvas colour).
  void set_clear_colour(float r, float g, float b) { clear_[0] = r, clear_[1] = g, clear_[2] = b; }
  void swap();
  // Blocks until an event arrives, or at most `timeout` seconds (< 0: forever).
  void wait(double timeout) const;
  void poll() const;
  // Ends a wait() from any thread (a background result is ready).
  static void wake();
  void framebuffer_size(int* w, int* h) const;

  // Full screen on the monitor the window is on (presentation), or back to
  // the window it was. No-op for hidden (headless) windows.
  void set_fullscreen(bool on);
  // The monitor's content scale (1 on ordinary screens, 2 on HiDPI).
  float content_scale() const;

  // Files dropped on the window since the last call.
  std::vector<std::string> take_drops();
  // True once after the user tried to close the window.
  bool take_close_request();

 private:
  static void on_drop(GLFWwindow* w, int count, const char** paths);
  // Keys reach ImGui through here, a quick tap held down for one frame (key_hold.hpp).
  static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);
  static void on_close(GLFWwindow* w);

  GLFWwindow* window_ = nullptr;
  std::vector<std::string> drops_;
  KeyHold keys_;
  bool close_requested_ = false;
  float clear_[3] = {0.97f, 0.97f, 0.98f};
  bool imgui_glfw_ = false, imgui_gl_ = false;
  bool visible_ = true;
  int windowed_[4] = {0, 0, 0, 0};  // x, y, width, height before full screen
};

}  // namespace viz
