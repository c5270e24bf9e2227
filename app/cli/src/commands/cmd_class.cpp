// `attn class simulate --join URL --code CODE --students N`: a class of
// simulated phones answering the open question of a running class session
// (attnviz --class), to load-test the teacher's server before a lesson and
// in `make bench` (scripts/class-load-bench.sh). The work is in
// classroom/class_simulation; this file is its command line. Built only
// where cpp-httplib is (ATTN_CLASS_SIMULATE): elsewhere the command says so.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "cli_error.hpp"
#include "commands/commands.hpp"
#if ATTN_CLASS_SIMULATE
#include <nlohmann/json.hpp>

#include "classroom/class_simulation.hpp"
#endif

namespace attn::cli {

namespace {

struct ClassSimulateArgs {
  std::string join, code;
  int students = 0;
  double within = 1;
  std::uint64_t seed = 0;
  bool seeded = false;
  int threads = 8;
  double wait = 30;
  bool json = false;
};

int run_class_simulate(ClassSimulateArgs a) {
#if ATTN_CLASS_SIMULATE
  SimulationSettings s;
  s.join = a.join;
  s.code = a.code;
  s.students = a.students;
  s.within_s = a.within;
  // Without --seed, each run is a new set of students (new device ids).
  s.seed = a.seeded ? a.seed : (static_cast<std::uint64_t>(std::random_device{}()) << 32 | std::random_device{}());
  s.threads = a.threads;
  s.wait_s = a.wait;
  try {
    const SimulationReport r = simulate_class(s);
    if (a.json) std::printf("%s\n", report_json(r).dump().c_str());
    else std::fputs(report_text(s, r).c_str(), stdout);
    return kExitOk;
  } catch (const SimulationError& e) {
    throw CliError(e.what());
  }
#else
  (void)a;
  throw CliError("this attn was built without cpp-httplib (Debian: libcpp-httplib-dev), so it cannot simulate a class");
#endif
}

}  // namespace

void add_class_command(CLI::App& app, Action& action) {
  CLI::App* cls = app.add_subcommand("class", "Work with a running class session (attnviz --lesson FILE --class).");
  cls->require_subcommand(1);
  auto args = std::make_shared<ClassSimulateArgs>();
  CLI::App* sim = cls->add_subcommand(
      "simulate", "Simulated students join the session, each looks at the open question once and answers it at a random moment "
                  "within --within seconds; prints answers sent, accepted and lost, the answers' latency and the time taken.");
  sim->add_option("--join", args->join, "The join address the teacher's screen shows, http://ADDRESS:PORT")->required();
  sim->add_option("--code", args->code, "The session code the teacher's screen shows")->required();
  sim->add_option("--students", args->students, "How many students (the class takes up to 500)")->required()->check(CLI::Range(1, 10000));
  sim->add_option("--within", args->within, "Spread the answers over this many seconds (default 1)")->check(CLI::Range(0.0, 3600.0));
  CLI::Option* seed = sim->add_option("--seed", args->seed, "Seed of the device ids, moments and answers (default: a new one each run; the same seed "
                                        "rejoins as the same students)");
  sim->add_option("--threads", args->threads, "Client threads, each keeping one connection open (default 8, the server's own count)")
      ->check(CLI::Range(1, 256));
  sim->add_option("--wait", args->wait, "Wait this many seconds at most for a question to open (default 30)")->check(CLI::Range(0.0, 86400.0));
  sim->add_flag("--json", args->json, "Print the results as one JSON object");
  sim->callback([args, seed, &action] {
    args->seeded = seed->count() > 0;
    action = [args] { return run_class_simulate(*args); };
  });
}

}  // namespace attn::cli
