// A program the app starts with one end of a pipe: the desktop's file
// chooser (its stdout read back) and ffmpeg (frames written to its stdin).
// Arguments go to the program as they are, with no shell between, so a path
// with spaces or quotes needs no quoting.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn::platform {

// A program that could not be started, with the reason.
struct ProcessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ChildProcess {
 public:
  enum class Pipe {
    FromStdout,  // the app reads what the program writes
    ToStdin,     // the app writes what the program reads
  };
  // How a program ended: its exit code, or stopped by a signal.
  struct Exit {
    bool exited = false;  // false: stopped by a signal
    int code = -1;        // the exit code when it exited
  };

  // Starts argv[0], searched on PATH; the rest of argv are its arguments.
  // The other standard streams are the app's. Throws ProcessError.
  static std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv, Pipe pipe);
  // Closes the pipe, then waits for the program to end and collects it, as
  // pclose does: a program reading its input ends once it sees the end. An
  // owner that no longer wants a program's answer calls terminate() first.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // FromStdout: everything the program writes, until it closes its output.
  std::string read_all();
  // ToStdin: false once the program has stopped reading (it ended or closed
  // its input); the app is not killed by SIGPIPE for it.
  bool write_all(const void* data, std::size_t bytes);
  // Closes the app's end: a program reading its input sees the end.
  void close_pipe();
  // Waits until the program has ended, without collecting it: until
  // collect(), terminate() can never reach another program that the
  // system has given the same process id meanwhile.
  void wait_until_ended();
  // Waits for the end and collects the program; once only.
  Exit collect();
  // Asks the program to stop (SIGTERM); nothing once collected.
  void terminate();

 private:
  ChildProcess(int pid, int fd) : pid_(pid), fd_(fd) {}
  int pid_;
  int fd_;
  bool collected_ = false;
};

// The program `name` is an executable file in one of PATH's folders.
bool program_on_path(const std::string& name);
// `path` names a file this user may run.
bool is_executable(const std::string& path);

}  // namespace attn::platform
