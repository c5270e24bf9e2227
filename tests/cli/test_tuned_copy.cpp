// The package's tuned copies (app/launch/tuned_copy.hpp), in an installed
// layout made here: <prefix>/bin/attn is the real program, and
// <prefix>/lib/attnviz/x86-64-v3/attn a stand-in that says it ran. On a
// CPU with x86-64-v3 the program must become the stand-in, with its
// arguments and ATTNVIZ_EXE naming the started program; elsewhere, or when
// started as the copy already, or with no copy installed, it runs itself.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_attn.hpp"
#include "tuned_copy.hpp"

namespace fs = std::filesystem;
using attn::cli::test::run_program;

TEST_CASE("tuned copy: its path sits beside bin, under lib/attnviz/LEVEL") {
  CHECK(attn::launch::tuned_copy_path("/usr/bin/attnviz") == "/usr/lib/attnviz/x86-64-v3/attnviz");
  CHECK(attn::launch::tuned_copy_path("/opt/x/bin/attn") == "/opt/x/lib/attnviz/x86-64-v3/attn");
  CHECK(attn::launch::tuned_copy_path("/usr/bin/attn", "x86-64-v4") == "/usr/lib/attnviz/x86-64-v4/attn");
  // A CPU that runs v4 code runs v3 code.
  if (attn::launch::cpu_runs("x86-64-v4")) CHECK(attn::launch::cpu_runs("x86-64-v3"));
  CHECK(!attn::launch::cpu_runs("x86-64-v9"));
}

TEST_CASE("tuned copy: with a v3 and a v4 copy installed, a program becomes the most capable one its CPU runs") {
  const fs::path prefix = fs::path(ATTN_CLI_TEST_TMP) / "tuned-levels";
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  const fs::path program = prefix / "bin" / "attn";
  fs::copy_file(ATTN_EXE, program);
  for (const char* level : {"x86-64-v3", "x86-64-v4"}) {
    const fs::path copy = prefix / "lib" / "attnviz" / level / "attn";
    fs::create_directories(copy.parent_path());
    std::ofstream(copy) << "#!/bin/sh\necho \"" << level << " copy\"\n";
    fs::permissions(copy, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  }
  const auto both = run_program(program.string(), {"--version"});
  CHECK(both.status == 0);
  if (attn::launch::cpu_runs("x86-64-v4")) CHECK(both.out == "x86-64-v4 copy\n");
  else if (attn::launch::cpu_runs("x86-64-v3")) CHECK(both.out == "x86-64-v3 copy\n");
  else CHECK(both.out.rfind("attn ", 0) == 0);
  // Without the v4 copy, a v4 CPU takes the v3 one.
  fs::remove(prefix / "lib" / "attnviz" / "x86-64-v4" / "attn");
  const auto v3_only = run_program(program.string(), {"--version"});
  if (attn::launch::cpu_runs("x86-64-v3")) CHECK(v3_only.out == "x86-64-v3 copy\n");
  else CHECK(v3_only.out.rfind("attn ", 0) == 0);
  fs::remove_all(prefix);
}

TEST_CASE("tuned copy: an installed program becomes its tuned copy exactly when the CPU runs it") {
  const fs::path prefix = fs::path(ATTN_CLI_TEST_TMP) / "tuned-prefix";
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "lib" / "attnviz" / "x86-64-v3");
  const fs::path program = prefix / "bin" / "attn";
  const fs::path copy = prefix / "lib" / "attnviz" / "x86-64-v3" / "attn";
  fs::copy_file(ATTN_EXE, program);
  std::ofstream(copy) << "#!/bin/sh\necho \"tuned copy, started as $ATTNVIZ_EXE, with $*\"\n";
  fs::permissions(copy, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);

  const auto started = run_program(program.string(), {"--version"});
  CHECK(started.status == 0);
  if (attn::launch::cpu_runs_tuned_code())
    CHECK(started.out == "tuned copy, started as " + program.string() + ", with --version\n");
  else
    CHECK(started.out.rfind("attn ", 0) == 0);

  // Started as the copy already (or asked not to dispatch): itself.
  const auto again = run_program(program.string(), {"--version"}, "ATTNVIZ_EXE=" + program.string());
  CHECK(again.out.rfind("attn ", 0) == 0);

  // No copy installed: itself.
  fs::remove(copy);
  const auto alone = run_program(program.string(), {"--version"});
  CHECK(alone.status == 0);
  CHECK(alone.out.rfind("attn ", 0) == 0);
  fs::remove_all(prefix);
}
