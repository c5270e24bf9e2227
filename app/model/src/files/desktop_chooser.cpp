// The desktop's file chooser as a child process (desktop_chooser.hpp).
#include "model/files/desktop_chooser.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace model {
namespace {

namespace fs = std::filesystem;

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

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
  if (choice == "zenity") return on_path("zenity") ? ChooserTool::Zenity : ChooserTool::None;
  if (choice == "kdialog") return on_path("kdialog") ? ChooserTool::Kdialog : ChooserTool::None;
  if (test_mode) return ChooserTool::None;
  const char* desktop = std::getenv("XDG_CURRENT_DESKTOP");
  const bool kde = desktop && std::strstr(desktop, "KDE");
  if (kde && on_path("kdialog")) return ChooserTool::Kdialog;
  if (on_path("zenity")) return ChooserTool::Zenity;
  if (on_path("kdialog")) return ChooserTool::Kdialog;
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
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    if (error) *error = std::string("cannot start the file chooser: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
    if (error) *error = std::string("cannot start ") + args[0] + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  result_.reset();
  cancelled_ = false;
  const std::string tool_name = args[0];
  worker_ = std::thread([this, fd = out[0], pid, tool_name] {
    std::string text;
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n > 0) text.append(buffer, static_cast<size_t>(n));
      else if (n == 0 || errno != EINTR) break;
    }
    ::close(fd);
    // Wait for the exit without reaping, so cancel() never signals a
    // process id the system has handed to another program meanwhile.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    std::lock_guard<std::mutex> lock(mutex_);
    pid_ = -1;
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    ChooserResult r;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (cancelled_ || code == 1) {
      r.outcome = ChooserResult::Outcome::Cancelled;
    } else if (code == 0 && !text.empty() && text.find('\n') == std::string::npos && fs::path(text).is_absolute()) {
      r.outcome = ChooserResult::Outcome::Chosen;
      r.path = text;
    } else {
      r.outcome = ChooserResult::Outcome::Failed;
      r.error = tool_name + (WIFEXITED(status) ? " exited with " + std::to_string(code) : std::string(" was stopped")) +
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
  std::optional<ChooserResult> r = std::move(result_);
  result_.reset();
  return r;
}

void DesktopChooser::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pid_ > 0 && !result_) {
    cancelled_ = true;
    ::kill(pid_, SIGTERM);
  }
}

}  // namespace model
