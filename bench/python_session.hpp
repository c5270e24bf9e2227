// A Python peer kept running for a whole measurement, so the benchmark can
// alternate blocks of its own runs with blocks of the peer's (ABAB...). On
// these shared virtual machines a core can run half as fast for seconds
// after it idles; measured one after the other, the two sides of a ratio
// could land in different such spells, and alternating puts both in each.
// Protocol: the script prints one JSON line when ready (or {"error": ...}),
// then answers each line written to it with one JSON line.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern char** environ;

namespace bench {

class PythonSession {
 public:
  // `python`: the interpreter that has torch (Debian's by default).
  PythonSession(const std::string& script, const std::vector<std::string>& args,
                const std::string& python = "/usr/bin/python3") {
    int to_child[2], from_child[2];
    if (::pipe(to_child) != 0) return;
    if (::pipe(from_child) != 0) {
      ::close(to_child[0]);
      ::close(to_child[1]);
      return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    std::vector<std::string> argv_s{python, script};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    const bool spawned = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) == 0;
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (!spawned) {
      ::close(to_child[1]);
      ::close(from_child[0]);
      pid_ = -1;
      ready_ = {{"error", "cannot start " + python}};
      return;
    }
    to_ = ::fdopen(to_child[1], "w");
    from_ = ::fdopen(from_child[0], "r");
    ready_ = read_line();
    if (ready_.contains("error") && ready_["error"] == "no answer") ready_ = {{"error", "python3 or torch not available"}};
  }
  ~PythonSession() {
    if (to_) std::fclose(to_);  // EOF: the script exits
    if (from_) std::fclose(from_);
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
  }
  PythonSession(const PythonSession&) = delete;
  PythonSession& operator=(const PythonSession&) = delete;

  // The script's first line: {"error": ...} when it could not start.
  const nlohmann::json& ready() const { return ready_; }
  bool ok() const { return to_ && from_ && !ready_.contains("error"); }

  // Writes one line and reads the answer ({"error": ...} when none came).
  nlohmann::json request(const std::string& line) {
    if (!ok()) return {{"error", "no session"}};
    std::fprintf(to_, "%s\n", line.c_str());
    std::fflush(to_);
    return read_line();
  }

 private:
  nlohmann::json read_line() {
    if (!from_) return {{"error", "no answer"}};
    char* buf = nullptr;
    size_t size = 0;
    const ssize_t got = ::getline(&buf, &size, from_);
    std::string line = got > 0 ? std::string(buf, static_cast<size_t>(got)) : "";
    std::free(buf);
    try {
      return nlohmann::json::parse(line);
    } catch (const std::exception&) {
      return {{"error", "no answer"}};
    }
  }

  pid_t pid_ = -1;
  std::FILE* to_ = nullptr;
  std::FILE* from_ = nullptr;
  nlohmann::json ready_ = {{"error", "not started"}};
};

}  // namespace bench
