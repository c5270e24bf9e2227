// `attn class simulate`: a class of simulated phones answering the question
// a class session has open, to measure the teacher's server under the burst
// a real class makes when the teacher says "answer now". Each student joins,
// looks at the question once (GET /api/state) at a random moment within
// `within_s`, then answers it (a random valid answer), as a phone would;
// a few client threads carry all students. The server rate-limits each device (8 requests a second), so no
// student sends more than these three requests.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "classroom/latency_summary.hpp"

namespace attn::cli {

struct SimulationSettings {
  std::string join;     // the join address, "http://ADDRESS:PORT"
  std::string code;     // the session code
  int students = 30;
  double within_s = 1;  // answers spread over this many seconds
  std::uint64_t seed = 1;
  int threads = 8;      // client threads (the server has 8 by default)
  double wait_s = 30;   // how long to wait for a question to open
};

struct SimulationReport {
  int students = 0;
  int joined = 0;
  int sent = 0;        // answers sent (a reply or not)
  int accepted = 0;    // answers the server took (HTTP 200)
  int lost = 0;        // sent but refused or unanswered
  int not_sent = 0;    // students whose join or look at the question failed
  LatencySummary latency;  // of the answers that got a reply
  double elapsed_s = 0;    // from the first join to the last reply
  // How late the latest student looked at the question after its moment:
  // the client threads fall behind when the server is slow (more students
  // than threads wait their turn), and latency alone would not show it.
  double behind_ms = 0;
  int threads = 0;
  int step = -1;       // the question's lesson step, counted from 1
  std::string form;    // "choice", "cell" or "number"
  std::string first_problem;  // the first refusal or failure, "" if none
};

// The run cannot start: a bad setting, a server that cannot be reached,
// a session code it refuses, no question opened in time. The message says
// which and where.
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs the whole simulation; returns when every student has answered or
// given up. Throws SimulationError as above; once the students are under
// way, problems are counted in the report instead.
SimulationReport simulate_class(const SimulationSettings& settings);

nlohmann::json report_json(const SimulationReport& r);
std::string report_text(const SimulationSettings& settings, const SimulationReport& r);

}  // namespace attn::cli
