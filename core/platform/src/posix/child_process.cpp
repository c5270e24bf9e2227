// POSIX child processes (attn/platform/child_process.hpp): posix_spawnp
// with one pipe end given to the child as its stdin or stdout; the pipe is
// opened close-on-exec, so no other program the app starts inherits it.
#include "attn/platform/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <cstring>

extern char** environ;

namespace attn::platform {

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv, Pipe pipe) {
  if (argv.empty()) throw ProcessError("no program to start");
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw ProcessError(std::string("cannot make a pipe: ") + std::strerror(errno));
  // The child's end goes to its stdin or stdout; the app keeps the other.
  const int child_end = pipe == Pipe::FromStdout ? ends[1] : ends[0];
  const int own_end = pipe == Pipe::FromStdout ? ends[0] : ends[1];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_end, pipe == Pipe::FromStdout ? STDOUT_FILENO : STDIN_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(child_end);
  if (rc != 0) {
    ::close(own_end);
    throw ProcessError("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, own_end));
}

ChildProcess::~ChildProcess() {
  close_pipe();
  collect();
}

std::string ChildProcess::read_all() {
  std::string text;
  char buffer[4096];
  while (fd_ >= 0) {
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n > 0)
      text.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  return text;
}

bool ChildProcess::write_all(const void* data, std::size_t bytes) {
  if (fd_ < 0) return false;
  // SIGPIPE blocked on this thread for the write: a program that stopped
  // reading makes write fail with EPIPE instead of killing the app. A
  // SIGPIPE left pending by it is taken before the mask is restored.
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  const char* at = static_cast<const char*>(data);
  bool ok = true;
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, at, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    at += n;
    bytes -= static_cast<std::size_t>(n);
  }
  if (!ok) {
    const timespec none{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &none) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

void ChildProcess::close_pipe() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void ChildProcess::wait_until_ended() {
  if (collected_) return;
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
}

ChildProcess::Exit ChildProcess::collect() {
  Exit e;
  if (collected_) return e;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  collected_ = true;
  e.exited = WIFEXITED(status);
  e.code = e.exited ? WEXITSTATUS(status) : -1;
  return e;
}

void ChildProcess::terminate() {
  if (!collected_) ::kill(pid_, SIGTERM);
}

bool program_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && is_executable(dir + "/" + name)) return true;
    start = end + 1;
  }
  return false;
}

bool is_executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

}  // namespace attn::platform
