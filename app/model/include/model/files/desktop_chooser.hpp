// The desktop's own file chooser, where there is one: GNOME's and most
// GTK desktops' through zenity, KDE's through kdialog (both Debian
// packages, each showing the desktop's native dialog, portal-backed where
// the desktop uses one). It runs as a child process read on a thread of its
// own, so the window keeps drawing while the user chooses, and it can be
// cancelled. Where neither tool is installed, or the tool fails, the app
// uses its own browser (file_browser.hpp).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "attn/platform/child_process.hpp"
#include "model/files/file_browser.hpp"

namespace model {

enum class ChooserTool { None, Zenity, Kdialog };

// What to ask for: a file to open, a file to save, or a folder.
struct ChooserRequest {
  enum class Mode { Open, Save, Folder } mode = Mode::Open;
  std::string title;
  std::string start;  // a folder, or a full path whose name is the suggestion (Save)
  FileFilter filter;  // Open and Save; no extensions: all files
};

// The tool to use: ATTNVIZ_FILE_CHOOSER=builtin (or none) says none;
// =zenity or =kdialog names one. Otherwise kdialog on KDE, else zenity,
// else kdialog, whichever is on PATH; none under a test (`test_mode`)
// unless the variable asks for one.
ChooserTool find_chooser_tool(bool test_mode);
const char* chooser_tool_name(ChooserTool tool);

// The tool's command line (argv, the program first).
std::vector<std::string> chooser_command(ChooserTool tool, const ChooserRequest& request);

// One run of the tool.
struct ChooserResult {
  enum class Outcome { Chosen, Cancelled, Failed } outcome = Outcome::Cancelled;
  std::string path;   // Chosen: the absolute path
  std::string error;  // Failed: why ("zenity exited with 255: ...")
};

class DesktopChooser {
 public:
  DesktopChooser() = default;
  DesktopChooser(const DesktopChooser&) = delete;
  DesktopChooser& operator=(const DesktopChooser&) = delete;
  ~DesktopChooser();  // cancels a running chooser and waits for it

  // Starts the tool; false (with the reason in `error`) when it cannot.
  bool start(ChooserTool tool, const ChooserRequest& request, std::string* error);
  bool running() const { return worker_.joinable(); }
  // The result once the tool has exited (then not running any more).
  std::optional<ChooserResult> poll();
  // Closes the tool's window (its result is then Cancelled).
  void cancel();

 private:
  std::thread worker_;
  std::unique_ptr<attn::platform::ChildProcess> child_;  // from start() until poll() takes the result
  std::mutex mutex_;
  std::optional<ChooserResult> result_;
  bool cancelled_ = false;
};

}  // namespace model
