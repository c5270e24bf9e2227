// The platform room (core/platform): each interface does what it says on
// this system, through the real system calls. Child processes are `sh`
// one-liners; files are written in a fresh temporary folder.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "attn/platform/child_process.hpp"
#include "attn/platform/cores.hpp"
#include "attn/platform/network.hpp"
#include "attn/platform/huge_pages.hpp"
#include "attn/platform/mapped_file.hpp"
#include "attn/platform/priority.hpp"
#include "attn/platform/this_program.hpp"
#include "attn/platform/thread_name.hpp"

namespace fs = std::filesystem;
using attn::platform::ChildProcess;
using attn::platform::MappedFile;

namespace {

struct PlatformFolder {
  fs::path dir = fs::temp_directory_path() / ("attn_platform_" + std::to_string(::getpid()));
  PlatformFolder() { fs::create_directories(dir); }
  ~PlatformFolder() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return dir / name;
  }
};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

}  // namespace

TEST_CASE("platform: a child's output is read back and its exit code collected") {
  auto child = ChildProcess::start({"sh", "-c", "printf 'hello world'; exit 3"}, ChildProcess::Pipe::FromStdout);
  CHECK(child->read_all() == "hello world");
  child->wait_until_ended();
  const ChildProcess::Exit exit = child->collect();
  CHECK(exit.exited);
  CHECK(exit.code == 3);
}

TEST_CASE("platform: arguments reach the child as they are, with no shell between") {
  const std::string odd = "it's a \"path\" with * and $HOME";
  auto child = ChildProcess::start({"printf", "%s", odd}, ChildProcess::Pipe::FromStdout);
  CHECK(child->read_all() == odd);
  CHECK(child->collect().code == 0);
}

TEST_CASE("platform: what is written to a child's input arrives whole, and a child that stopped reading fails the write without killing us") {
  PlatformFolder folder;
  const fs::path out = folder.dir / "copied";
  const std::string bytes(1 << 20, 'x');  // more than a pipe holds
  {
    auto child = ChildProcess::start({"sh", "-c", "cat > '" + out.string() + "'"}, ChildProcess::Pipe::ToStdin);
    CHECK(child->write_all(bytes.data(), bytes.size()));
    child->close_pipe();
    CHECK(child->collect().code == 0);
  }
  CHECK(fs::file_size(out) == bytes.size());
  auto quitter = ChildProcess::start({"sh", "-c", "exit 0"}, ChildProcess::Pipe::ToStdin);
  quitter->wait_until_ended();
  CHECK_FALSE(quitter->write_all(bytes.data(), bytes.size()));  // EPIPE, and this test still runs
}

TEST_CASE("platform: a program that is not there is refused with its name, and a terminated one reads as stopped") {
  const std::string missing = message_of([] { ChildProcess::start({"attn-no-such-program"}, ChildProcess::Pipe::FromStdout); });
  CHECK(missing.find("cannot start attn-no-such-program") != std::string::npos);
  auto sleeper = ChildProcess::start({"sleep", "30"}, ChildProcess::Pipe::FromStdout);
  sleeper->terminate();
  sleeper->wait_until_ended();
  const ChildProcess::Exit exit = sleeper->collect();
  CHECK_FALSE(exit.exited);
  sleeper->terminate();  // collected: nothing is signalled
  CHECK(attn::platform::program_on_path("sh"));
  CHECK_FALSE(attn::platform::program_on_path("attn-no-such-program"));
}

TEST_CASE("platform: a mapped file reads as the file, and a change on disk is reported") {
  PlatformFolder folder;
  const std::string bytes = "0123456789abcdef";
  const fs::path path = folder.write("weights.bin", bytes);
  auto mapped = MappedFile::open(path.string());
  REQUIRE(mapped->size() == bytes.size());
  CHECK(std::string(reinterpret_cast<const char*>(mapped->data()), mapped->size()) == bytes);
  mapped->release(mapped->data(), mapped->data() + mapped->size());
  CHECK(std::string(reinterpret_cast<const char*>(mapped->data()), mapped->size()) == bytes);  // read back from disk
  CHECK(mapped->changed().kind == MappedFile::Change::Kind::None);
  std::ofstream(path, std::ios::app) << "more";
  const MappedFile::Change grown = mapped->changed();
  CHECK(grown.kind == MappedFile::Change::Kind::Resized);
  CHECK(grown.size_now == bytes.size() + 4);
  CHECK(MappedFile::open(folder.write("empty", "").string())->size() == 0);
}

TEST_CASE("platform: a folder, a pipe and a missing file are refused with the reason, without blocking") {
  PlatformFolder folder;
  CHECK(message_of([&] { MappedFile::open(folder.dir.string()); }).find("not a regular file") != std::string::npos);
  const fs::path fifo = folder.dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(message_of([&] { MappedFile::open(fifo.string()); }).find("not a regular file") != std::string::npos);
  CHECK(message_of([&] { MappedFile::open((folder.dir / "absent").string()); }).find("cannot open: ") == 0);
}

TEST_CASE("platform: threads are named and lowered one at a time") {
  std::string name;
  int before = 0, after = 0, main_after = 0;
  std::thread t([&] {
    attn::platform::name_this_thread("attn-test-thread-long-name");
    std::ifstream comm("/proc/self/task/" + std::to_string(::syscall(SYS_gettid)) + "/comm");
    std::getline(comm, name);
    before = attn::platform::this_threads_nice();
    attn::platform::set_this_threads_nice(before + 3);
    after = attn::platform::this_threads_nice();
  });
  t.join();
  main_after = attn::platform::this_threads_nice();
  CHECK(name == "attn-test-threa");  // Linux keeps 15 characters
  CHECK(after == std::min(before + 3, 19));
  CHECK(main_after == before);  // the thread's alone
}

TEST_CASE("platform: this program, its environment and its cores") {
  CHECK(fs::path(attn::platform::this_executable()).filename() == "test_core");
  attn::platform::set_environment("ATTN_PLATFORM_TEST", "yes");
  REQUIRE(std::getenv("ATTN_PLATFORM_TEST"));
  CHECK(std::string(std::getenv("ATTN_PLATFORM_TEST")) == "yes");
  attn::platform::unset_environment("ATTN_PLATFORM_TEST");
  CHECK_FALSE(std::getenv("ATTN_PLATFORM_TEST"));
  CHECK(attn::platform::affinity_cores() >= 1);
  CHECK(attn::platform::this_core() >= 0);
  CHECK(attn::platform::is_executable(attn::platform::this_executable()));
  std::vector<double> big(3 << 20);  // 24 MB: a few whole huge pages inside
  attn::platform::advise_huge_pages(big.data(), big.size() * sizeof(double));
  big[big.size() - 1] = 1;  // still ordinary memory to the program
  CHECK(big.back() == 1);
}

TEST_CASE("platform: the default route's interface is read from the route table, and the interfaces list loopback last") {
  const std::string table =
      "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
      "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
      "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
      "wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n";
  CHECK(attn::platform::default_route_interface(table) == "wlan0");
  CHECK(attn::platform::default_route_interface("Iface\tDestination\n" "eth0\t0001A8C0\n").empty());
  CHECK(attn::platform::default_route_interface("").empty());

  const std::vector<attn::platform::NetworkInterface> all = attn::platform::ipv4_interfaces();
  bool seen_loopback = false;
  for (const attn::platform::NetworkInterface& n : all) {
    INFO(n.name, " ", n.address);
    CHECK(!n.address.empty());
    if (seen_loopback) CHECK(n.loopback);  // loopback comes last
    seen_loopback = seen_loopback || n.loopback;
  }
  // Every machine that runs the tests has 127.0.0.1 up.
  bool has_localhost = false;
  for (const auto& n : all) has_localhost = has_localhost || n.address == "127.0.0.1";
  CHECK(has_localhost);
  if (const auto lan = attn::platform::default_lan_interface()) CHECK(!lan->loopback);
}
