// Saving keeps what the user has: the file's permissions, a symlink (the
// link stays, its target changes), hard links (all names see the new text),
// long file names, and an interrupted save (the process killed mid-write)
// leaves the old file whole. Reading refuses files that are not regular.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "temp_files.hpp"

namespace {

namespace fs = std::filesystem;

using attn::io::test::file_text;
using attn::io::test::fresh_dir;

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("save: a file keeps its permissions") {
  const fs::path p = fresh_dir("perm") / "s.json";
  attn::io::write_text_atomically(p.string(), "one");
  ::chmod(p.c_str(), 0600);
  attn::io::write_text_atomically(p.string(), "two");
  CHECK(file_text(p) == "two");
  CHECK(mode_of(p) == 0600);
  ::chmod(p.c_str(), 0640);
  attn::io::write_text_atomically(p.string(), "three");
  CHECK(mode_of(p) == 0640);
}

TEST_CASE("save: a file keeps its owner and group") {
  const fs::path p = fresh_dir("owner") / "s.json";
  attn::io::write_text_atomically(p.string(), "one");
  ::chmod(p.c_str(), 0664);
  // Root (as CI runs) saves a file someone else owns, nobody:nogroup; anyone
  // else saves one of their own whose group is not their primary one when
  // they have such a group (chown lets an owner pick among their groups).
  uid_t uid = ::geteuid();
  gid_t gid = ::getegid();
  if (::geteuid() == 0) {
    uid = 65534;
    gid = 65534;
  } else {
    gid_t groups[64];
    const int n = ::getgroups(64, groups);
    for (int i = 0; i < n; ++i)
      if (groups[i] != gid) gid = groups[i];
  }
  REQUIRE(::chown(p.c_str(), uid, gid) == 0);
  attn::io::write_text_atomically(p.string(), "two");
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  CHECK(file_text(p) == "two");
  CHECK(st.st_uid == uid);
  CHECK(st.st_gid == gid);
  CHECK((st.st_mode & 07777) == 0664);
}

TEST_CASE("save: through a symlink the link stays and its target changes") {
  const fs::path dir = fresh_dir("symlink");
  attn::io::write_text_atomically((dir / "real.json").string(), "old");
  fs::create_symlink("real.json", dir / "link.json");
  attn::io::write_text_atomically((dir / "link.json").string(), "new");
  CHECK(fs::is_symlink(dir / "link.json"));
  CHECK(file_text(dir / "real.json") == "new");
}

TEST_CASE("save: hard links all see the new text") {
  const fs::path dir = fresh_dir("hardlink");
  attn::io::write_text_atomically((dir / "a.json").string(), "old");
  fs::create_hard_link(dir / "a.json", dir / "b.json");
  attn::io::write_text_atomically((dir / "a.json").string(), "new text");
  CHECK(file_text(dir / "b.json") == "new text");
  CHECK(fs::hard_link_count(dir / "a.json") == 2);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 2);  // no temporary left
}

TEST_CASE("save: a 250-character file name has room (the temporary's name is short)") {
  const fs::path p = fresh_dir("long") / (std::string(245, 'n') + ".json");
  attn::io::write_text_atomically(p.string(), "fits");
  CHECK(file_text(p) == "fits");
}

TEST_CASE("save: a new file gets the usual permissions, not the temporary's 0600") {
  const fs::path p = fresh_dir("newmode") / "s.json";
  const mode_t mask = ::umask(022);
  attn::io::write_text_atomically(p.string(), "x");
  ::umask(mask);
  CHECK(mode_of(p) == 0644);
}

TEST_CASE("save: killed in the middle of writing, the old file is whole") {
  const fs::path dir = fresh_dir("interrupted");
  const fs::path p = dir / "s.json";
  attn::io::write_text_atomically(p.string(), "the old file");
  // A child writes a large text and is killed while it writes.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const std::string big(400u << 20, 'x');
    attn::io::write_text_atomically(p.string(), big);
    ::_exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  const std::string now = file_text(p);
  // Either the old text, or (had the child finished) the complete new one.
  CHECK((now == "the old file" || now.size() == (400u << 20)));
  if (WIFSIGNALED(status)) CHECK(now == "the old file");
}

TEST_CASE("read: devices and FIFOs are refused at once, never read or waited on") {
  for (const std::string path : {"/dev/zero", "/dev/urandom"}) {
    try {
      attn::io::read_text(path);
      FAIL("read " << path);
    } catch (const attn::io::FormatError& e) {
      CHECK(std::string(e.what()).find("is not a regular file") == 0);
    }
  }
  const fs::path fifo = fresh_dir("fifo") / "pipe.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A blocking read would hang here; CTest's timeout would then fail the test.
  CHECK_THROWS_WITH_AS(attn::io::read_text(fifo.string()), doctest::Contains("is not a regular file"), attn::io::FormatError);
}

// The dumps the UI tests read are rewritten every frame: they skip the
// flushes to disk but are still written whole, over the old one, with no
// temporary left behind, and a folder that cannot be written is an error.
TEST_CASE("save: a write that need not survive a power cut is still whole and leaves no temporary") {
  const fs::path dir = fresh_dir("renamed");
  const fs::path p = dir / "layout.json";
  attn::io::write_text_atomically(p.string(), "first", attn::io::Durability::Renamed);
  attn::io::write_text_atomically(p.string(), "second, longer", attn::io::Durability::Renamed);
  CHECK(file_text(p) == "second, longer");
  int entries = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
  CHECK_THROWS_AS(attn::io::write_text_atomically((dir / "missing" / "x.json").string(), "x", attn::io::Durability::Renamed),
                  attn::io::FormatError);
}
