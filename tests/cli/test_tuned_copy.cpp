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

TEST_CASE("tuned copy: its path sits beside bin, under lib/attnviz/x86-64-v3") {
  CHECK(attn::launch::tuned_copy_path("/usr/bin/attnviz") == "/usr/lib/attnviz/x86-64-v3/attnviz");
  CHECK(attn::launch::tuned_copy_path("/opt/x/bin/attn") == "/opt/x/lib/attnviz/x86-64-v3/attn");
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
