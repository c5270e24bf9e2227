// What `attn class simulate` prints: a few lines for a person, or one JSON
// object for scripts (scripts/class-load-bench.sh reads "lost" and the
// percentiles from it). Declared in class_simulation.hpp.
#include "classroom/class_simulation.hpp"

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace attn::cli {

namespace {

std::string decimals(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

}  // namespace

nlohmann::json report_json(const SimulationReport& r) {
  return {{"students", r.students},
          {"joined", r.joined},
          {"sent", r.sent},
          {"accepted", r.accepted},
          {"lost", r.lost},
          {"not_sent", r.not_sent},
          {"p50_ms", r.latency.p50_ms},
          {"p90_ms", r.latency.p90_ms},
          {"p99_ms", r.latency.p99_ms},
          {"max_ms", r.latency.max_ms},
          {"elapsed_s", r.elapsed_s},
          {"behind_ms", r.behind_ms},
          {"threads", r.threads},
          {"step", r.step},
          {"form", r.form},
          {"first_problem", r.first_problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.first_problem)}};
}

std::string report_text(const SimulationSettings& s, const SimulationReport& r) {
  std::string out = "class simulate: " + std::to_string(r.students) + " students at " + s.join + " (session " + s.code + "), step " +
                    std::to_string(r.step) + "'s " + r.form + " question\n";
  out += "  joined " + std::to_string(r.joined) + " of " + std::to_string(r.students) + "\n";
  out += "  answers: " + std::to_string(r.sent) + " sent, " + std::to_string(r.accepted) + " accepted, " + std::to_string(r.lost) + " lost";
  if (r.not_sent > 0) out += "; " + std::to_string(r.not_sent) + " students could not answer";
  out += "\n  answer latency: p50 " + decimals(r.latency.p50_ms, 2) + " ms, p90 " + decimals(r.latency.p90_ms, 2) + " ms, p99 " +
         decimals(r.latency.p99_ms, 2) + " ms, max " + decimals(r.latency.max_ms, 2) + " ms\n";
  out += "  elapsed " + decimals(r.elapsed_s, 2) + " s (answers spread over " + decimals(s.within_s, 2) + " s, " + std::to_string(r.threads) +
         " client threads, up to " + decimals(r.behind_ms, 0) + " ms behind their moments)\n";
  if (!r.first_problem.empty()) out += "  first problem: " + r.first_problem + "\n";
  return out;
}

}  // namespace attn::cli
