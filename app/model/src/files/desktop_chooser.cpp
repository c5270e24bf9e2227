// The desktop's file chooser as a child process (desktop_chooser.hpp).
#include "model/files/desktop_chooser.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "attn/platform/thread_name.hpp"

namespace model {
namespace {

namespace fs = std::filesystem;

// "Scenarios (.json) | *.json *.JSON" for zenity; "*.json *.JSON|Scenarios" for kdialog.
std::string patterns(const FileFilter& f) {
  std::string out;
  for (const std::string& ext : f.extensions) {
    std::string upper = ext;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out += (out.empty() ? "*" : " *") + ext + " *" + upper;
  }
  return out;
}

}  // namespace

ChooserTool find_chooser_tool(bool test_mode) {
  const char* forced = std::getenv("ATTNVIZ_FILE_CHOOSER");
  const std::string choice = forced ? forced : "";
  if (choice == "builtin" || choice == "none") return ChooserTool::None;
  if (choice == "zenity") return attn::platform::program_on_path("zenity") ? ChooserTool::Zenity : ChooserTool::None;
  if (choice == "kdialog") return attn::platform::program_on_path("kdialog") ? ChooserTool::Kdialog : ChooserTool::None;
  if (test_mode) return ChooserTool::None;
  const char* desktop = std::getenv("XDG_CURRENT_DESKTOP");
  const bool kde = desktop && std::strstr(desktop, "KDE");
  if (kde && attn::platform::program_on_path("kdialog")) return ChooserTool::Kdialog;
  if (attn::platform::program_on_path("zenity")) return ChooserTool::Zenity;
  if (attn::platform::program_on_path("kdialog")) return ChooserTool::Kdialog;
  return ChooserTool::None;
}

const char* chooser_tool_name(ChooserTool tool) {
  return tool == ChooserTool::Zenity ? "zenity" : tool == ChooserTool::Kdialog ? "kdialog" : "none";
}

std::vector<std::string> chooser_command(ChooserTool tool, const ChooserRequest& r) {
  using Mode = ChooserRequest::Mode;
  if (tool == ChooserTool::Zenity) {
    std::vector<std::string> argv = {"zenity", "--file-selection", "--title=" + r.title};
    if (r.mode == Mode::Save) argv.push_back("--save"), argv.push_back("--confirm-overwrite");
    if (r.mode == Mode::Folder) argv.push_back("--directory");
    // zenity opens a folder given with a trailing slash, and suggests the name otherwise.
    std::error_code ec;
    const bool folder = fs::is_directory(r.start, ec);
    if (!r.start.empty()) argv.push_back("--filename=" + r.start + (folder && r.start.back() != '/' ? "/" : ""));
    if (r.mode != Mode::Folder && !r.filter.extensions.empty()) {
      argv.push_back("--file-filter=" + r.filter.label + " | " + patterns(r.filter));
      argv.push_back("--file-filter=All files | *");
    }
    return argv;
  }
  if (tool == ChooserTool::Kdialog) {
    const char* verb = r.mode == Mode::Save ? "--getsavefilename" : r.mode == Mode::Folder ? "--getexistingdirectory" : "--getopenfilename";
    std::vector<std::string> argv = {"kdialog", "--title", r.title, verb, r.start.empty() ? "." : r.start};
    if (r.mode != Mode::Folder && !r.filter.extensions.empty()) argv.push_back(patterns(r.filter) + "|" + r.filter.label);
    return argv;
  }
  return {};
}

DesktopChooser::~DesktopChooser() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

bool DesktopChooser::start(ChooserTool tool, const ChooserRequest& request, std::string* error) {
  if (running()) {
    if (error) *error = "a file chooser is already open";
    return false;
  }
  const std::vector<std::string> args = chooser_command(tool, request);
  if (args.empty()) {
    if (error) *error = "no desktop file chooser (zenity or kdialog) is installed";
    return false;
  }
  try {
    child_ = attn::platform::ChildProcess::start(args, attn::platform::ChildProcess::Pipe::FromStdout);
  } catch (const attn::platform::ProcessError& e) {
    if (error) *error = e.what();
    return false;
  }
  result_.reset();
  cancelled_ = false;
  const std::string tool_name = args[0];
  worker_ = std::thread([this, tool_name] {
    attn::platform::name_this_thread("attn-chooser");
    attn::platform::ChildProcess& child = *child_;  // kept until poll() has joined this thread
    std::string text = child.read_all();
    child.close_pipe();
    // Collected under the lock, so cancel() never signals a process id the
    // system has handed to another program meanwhile.
    child.wait_until_ended();
    std::lock_guard<std::mutex> lock(mutex_);
    const attn::platform::ChildProcess::Exit exit = child.collect();
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    ChooserResult r;
    const int code = exit.exited ? exit.code : -1;
    if (cancelled_ || code == 1) {
      r.outcome = ChooserResult::Outcome::Cancelled;
    } else if (code == 0 && !text.empty() && text.find('\n') == std::string::npos && fs::path(text).is_absolute()) {
      r.outcome = ChooserResult::Outcome::Chosen;
      r.path = text;
    } else {
      r.outcome = ChooserResult::Outcome::Failed;
      r.error = tool_name + (exit.exited ? " exited with " + std::to_string(code) : std::string(" was stopped")) +
                (text.empty() ? "" : ": " + text.substr(0, 200));
    }
    result_ = r;
  });
  return true;
}

std::optional<ChooserResult> DesktopChooser::poll() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!result_) return std::nullopt;
  }
  worker_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  child_.reset();
  std::optional<ChooserResult> r = std::move(result_);
  result_.reset();
  return r;
}

void DesktopChooser::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (child_ && !result_) {
    cancelled_ = true;
    child_->terminate();
  }
}

}  // namespace model
