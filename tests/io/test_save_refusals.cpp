// Saves that the folder refuses: a writable file in a read-only folder
// cannot be replaced (the temporary file has nowhere to go), and the message
// must blame the folder, not the file. Tests run as root in CI, where
// permissions do not bite, so the save itself runs in a child process that
// has become nobody (65534); run as anyone else, it runs as they are.
#include <doctest/doctest.h>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <functional>
#include <string>

#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "files/file_io.hpp"
#include "temp_files.hpp"

namespace {

namespace fs = std::filesystem;
using attn::io::test::fresh_dir;
using attn::io::test::file_text;

constexpr uid_t kNobody = 65534;

// The error message of saving `text` to `path`, or "" when it saved.
std::string save_message(const fs::path& path, const std::string& text) {
  try {
    attn::io::write_text_atomically(path.string(), text);
    return "";
  } catch (const attn::io::FormatError& e) {
    return e.what();
  }
}

// Runs `work` as a user without privileges: as root, in a child process
// that has become nobody (its answer comes back through a pipe); otherwise
// here, as the user the tests run as.
std::string unprivileged(const std::function<std::string()>& work) {
  if (::geteuid() != 0) return work();
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::string answer = "cannot become nobody";
    if (::setgroups(0, nullptr) == 0 && ::setresgid(kNobody, kNobody, kNobody) == 0 &&
        ::setresuid(kNobody, kNobody, kNobody) == 0)
      answer = work();
    const ssize_t written = ::write(pipe_fds[1], answer.data(), answer.size());
    ::_exit(written == static_cast<ssize_t>(answer.size()) ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  std::string answer;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) answer.append(buf, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  return answer;
}

}  // namespace

TEST_CASE("save: a writable file in a read-only folder is refused naming the folder, and kept") {
  const fs::path dir = fresh_dir("readonly-folder");
  const fs::path file = dir / "s.json";
  attn::io::write_text_atomically(file.string(), "old");
  REQUIRE(::chmod(file.c_str(), 0666) == 0);
  REQUIRE(::chmod(dir.c_str(), 0555) == 0);
  const std::string message = unprivileged([&] { return save_message(file, "new"); });
  ::chmod(dir.c_str(), 0755);
  CHECK(message == "cannot write " + file.string() + ": the folder " + dir.string() +
                       " is read-only (permission denied); save it elsewhere");
  CHECK(file_text(file) == "old");
}

TEST_CASE("save: someone who cannot keep the file's owner still saves it") {
  if (::geteuid() != 0) {
    MESSAGE("needs root to give the file another owner; skipped");
    return;
  }
  // root's file, writable by all, in a folder nobody may write: nobody's save
  // cannot give the new file back to root, and goes on all the same.
  const fs::path dir = fresh_dir("other-owner");
  const fs::path file = dir / "s.json";
  attn::io::write_text_atomically(file.string(), "root's");
  REQUIRE(::chmod(file.c_str(), 0666) == 0);
  REQUIRE(::chmod(dir.c_str(), 0777) == 0);
  CHECK(unprivileged([&] { return save_message(file, "nobody's"); }) == "");
  CHECK(file_text(file) == "nobody's");
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0666);
}

TEST_CASE("save: a refusing folder is named with its reason") {
  using attn::io::detail::folder_refusal;
  CHECK(folder_refusal("/a/b/s.json", "/a/b", EROFS) ==
        "cannot write /a/b/s.json: the folder /a/b is on a read-only file system; save it elsewhere");
  CHECK(folder_refusal("/a/b/s.json", "/a/b", EACCES) ==
        "cannot write /a/b/s.json: the folder /a/b is read-only (permission denied); save it elsewhere");
  CHECK(folder_refusal("/no/s.json", "/no", ENOENT) == "cannot write /no/s.json: the folder /no does not exist");
  // A relative folder is shown where it is.
  CHECK(folder_refusal("s.json", ".", EACCES).find("the folder " + fs::current_path().string() + " is read-only") !=
        std::string::npos);
}

TEST_CASE("save: a folder that does not exist is named") {
  const fs::path dir = fresh_dir("missing-folder") / "gone";
  CHECK(save_message(dir / "s.json", "x") ==
        "cannot write " + (dir / "s.json").string() + ": the folder " + dir.string() + " does not exist");
}
