// The simulated class (see class_simulation.hpp): first one student joins
// alone (on thread 0's connection), so a wrong address or code is one clear error instead of hundreds;
// then the others join over the client threads, one student polls until a
// question is open, and every student looks at it and answers at its own
// moment of the window. Each thread writes only its own tally; they are
// added up once all threads are done, so no lock is held while timing.
#include "classroom/class_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <random>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "classroom/class_api_client.hpp"
#include "classroom/simulated_student.hpp"

namespace attn::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::microseconds seconds_as_duration(double s) { return std::chrono::microseconds(static_cast<long long>(s * 1e6)); }

void check_settings(const SimulationSettings& s) {
  if (s.code.empty()) throw SimulationError("--code: the session code is empty (the teacher's screen shows it)");
  if (s.students < 1) throw SimulationError("--students: " + std::to_string(s.students) + " students; give at least 1");
  if (!std::isfinite(s.within_s) || s.within_s < 0 || s.within_s > 3600)
    throw SimulationError("--within: expected seconds from 0 to 3600, got " + std::to_string(s.within_s));
  if (s.threads < 1) throw SimulationError("--threads: expected at least 1 client thread, got " + std::to_string(s.threads));
  if (!std::isfinite(s.wait_s) || s.wait_s < 0) throw SimulationError("--wait: expected seconds of 0 or more");
}

// What the students of one client thread did.
struct ThreadTally {
  int joined = 0, sent = 0, accepted = 0, not_sent = 0;
  double behind_ms = 0;
  std::vector<double> answer_ms;
  std::string first_problem;
  void note(const std::string& problem) {
    if (first_problem.empty()) first_problem = problem;
  }
};

// Runs work(t) for t in [0, n) on n threads. An exception a thread throws
// (none is expected) is noted in its tally instead of ending the process.
template <class Work>
void on_threads(std::vector<ThreadTally>& tallies, Work work) {
  std::vector<std::thread> threads;
  for (size_t t = 0; t < tallies.size(); ++t)
    threads.emplace_back([&, t] {
      try {
        work(static_cast<int>(t), tallies[t]);
      } catch (const std::exception& e) {
        tallies[t].note(std::string("a client thread failed: ") + e.what());
      }
    });
  for (std::thread& th : threads) th.join();
}

bool open_question(const ApiReply& look) {
  return look.ok() && look.body.is_object() && look.body.value("question", nlohmann::json()).is_object() &&
         look.body.value("phase", std::string()) == "open";
}

// Polls as student `device` until a question is open; returns its state. Four
// looks a second stay well under the server's per-device rate.
nlohmann::json wait_for_question(ClassApiClient& client, const std::string& device, const SimulationSettings& s) {
  const auto deadline = Clock::now() + seconds_as_duration(s.wait_s);
  for (;;) {
    const ApiReply look = client.state(device);
    if (!look.ok()) throw SimulationError("the class server at " + s.join + " failed while waiting for a question: " + look.problem);
    if (look.body.is_object() && look.body.value("ended", false)) throw SimulationError("the class session at " + s.join + " has ended");
    if (open_question(look)) return look.body["question"];
    if (Clock::now() >= deadline)
      throw SimulationError("no question was open at " + s.join + " within " + std::to_string(static_cast<int>(s.wait_s)) +
                            " s (the teacher opens one by going to a lesson step that asks something)");
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

// One student looks at the question and answers it; counted in `tally`.
void look_and_answer(ClassApiClient& client, const SimulationSettings& s, int i, ThreadTally& tally) {
  const std::string device = simulated_device(s.seed, i);
  const ApiReply look = client.state(device);
  if (!open_question(look)) {
    ++tally.not_sent;
    tally.note("student " + std::to_string(i) + " found no open question" + (look.problem.empty() ? "" : ": " + look.problem));
    return;
  }
  const nlohmann::json& question = look.body["question"];
  nlohmann::json answer;
  try {
    auto random = student_random(s.seed, i);
    answer = random_answer(question, random);
  } catch (const std::exception& e) {
    ++tally.not_sent;
    tally.note(std::string("student ") + std::to_string(i) + " cannot answer: " + e.what());
    return;
  }
  const ApiReply r = client.answer(device, question.value("step", -1), answer);
  ++tally.sent;
  if (r.status != 0) tally.answer_ms.push_back(r.ms);
  if (r.ok()) ++tally.accepted;
  else tally.note("student " + std::to_string(i) + "'s answer: " + r.problem);
}

}  // namespace

SimulationReport simulate_class(const SimulationSettings& s) {
  check_settings(s);
  JoinAddress address;
  try {
    address = parse_join_address(s.join);
  } catch (const std::invalid_argument& e) {
    throw SimulationError(std::string("--join: ") + e.what());
  }
  const auto start = Clock::now();
  // One client per thread, and no other. (The server closes each connection
  // after one request, so a kept-alive phone no longer holds one of its
  // threads; the client opens the next connection by itself.)
  const int threads = std::min(s.threads, s.students);
  std::vector<ClassApiClient> clients;
  for (int t = 0; t < threads; ++t) clients.emplace_back(address, s.code);
  ClassApiClient& first = clients[0];
  const ApiReply joined = first.join(simulated_device(s.seed, 0), simulated_nickname(0));
  if (joined.status == 0) throw SimulationError("cannot reach the class server at " + s.join + ": " + joined.problem);
  if (joined.status == 403)
    throw SimulationError("the class server at " + s.join + " refused the session code \"" + s.code + "\" (" + joined.problem + ")");
  if (!joined.ok()) throw SimulationError("the class server at " + s.join + " refused the first student: " + joined.problem);

  std::vector<ThreadTally> tallies(static_cast<size_t>(threads));
  // Thread t carries students t, t + threads, ...; student 0 has joined.
  std::vector<char> in_class(static_cast<size_t>(s.students), 0);
  in_class[0] = 1;
  on_threads(tallies, [&](int t, ThreadTally& tally) {
    for (int i = t; i < s.students; i += threads) {
      const ApiReply r = i == 0 ? joined : clients[static_cast<size_t>(t)].join(simulated_device(s.seed, i), simulated_nickname(i));
      if (r.ok()) {
        ++tally.joined;
        in_class[static_cast<size_t>(i)] = 1;
      } else {
        ++tally.not_sent;
        tally.note("student " + std::to_string(i) + "'s join: " + r.problem);
      }
    }
  });

  const nlohmann::json question = wait_for_question(first, simulated_device(s.seed, 0), s);
  SimulationReport report;
  report.step = question.value("step", -2) + 1;
  report.form = question.value("form", std::string());

  // Each student's moment in the window, drawn once from the seed.
  std::mt19937_64 schedule(s.seed);
  std::uniform_real_distribution<double> moment(0, s.within_s);
  std::vector<double> offset(static_cast<size_t>(s.students));
  for (double& o : offset) o = moment(schedule);
  const auto window_start = Clock::now();
  on_threads(tallies, [&](int t, ThreadTally& tally) {
    std::vector<int> mine;
    for (int i = t; i < s.students; i += threads)
      if (in_class[static_cast<size_t>(i)]) mine.push_back(i);
    std::sort(mine.begin(), mine.end(), [&](int a, int b) { return offset[static_cast<size_t>(a)] < offset[static_cast<size_t>(b)]; });
    for (const int i : mine) {
      const auto moment = window_start + seconds_as_duration(offset[static_cast<size_t>(i)]);
      std::this_thread::sleep_until(moment);
      tally.behind_ms = std::max(tally.behind_ms, std::chrono::duration<double, std::milli>(Clock::now() - moment).count());
      look_and_answer(clients[static_cast<size_t>(t)], s, i, tally);
    }
  });

  report.students = s.students;
  report.threads = threads;
  std::vector<double> answer_ms;
  for (const ThreadTally& t : tallies) {
    report.joined += t.joined;
    report.sent += t.sent;
    report.accepted += t.accepted;
    report.not_sent += t.not_sent;
    report.behind_ms = std::max(report.behind_ms, t.behind_ms);
    answer_ms.insert(answer_ms.end(), t.answer_ms.begin(), t.answer_ms.end());
    if (report.first_problem.empty()) report.first_problem = t.first_problem;
  }
  report.lost = report.sent - report.accepted;
  report.latency = summarize_latency(std::move(answer_ms));
  report.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

}  // namespace attn::cli
