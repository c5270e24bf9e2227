// The other commands on a known scenario: `trace` output is byte-identical
// to attn_io's trace_to_json (the CLI streams it stage by stage), `check`
// prints the expected summary, `stages` lists every stage, and --help /
// --version exit 0.
#include <doctest/doctest.h>

#include <string>

#include "attn/io/scenario_file.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;

namespace {

const std::string kSmall = std::string(ATTN_CLI_DATA_DIR) + "/small.json";

std::string expected_trace(int indent) {
  const attn::io::ScenarioFile f = attn::io::load_scenario(kSmall);
  return attn::io::trace_to_json(attn::compute_trace(f.scenario)).dump(indent) + "\n";
}

}  // namespace

TEST_CASE("attn trace streams exactly what trace_to_json produces") {
  const auto compact = run_attn({"trace", kSmall});
  REQUIRE(compact.status == 0);
  CHECK(compact.err == "");
  CHECK(compact.out == expected_trace(-1));
  const auto pretty = run_attn({"trace", kSmall, "--indent", "1"});
  REQUIRE(pretty.status == 0);
  CHECK(pretty.out == expected_trace(1));
  const auto wide = run_attn({"trace", kSmall, "--indent", "4"});
  REQUIRE(wide.status == 0);
  CHECK(wide.out == expected_trace(4));
}

TEST_CASE("attn check prints the one-line summary") {
  const auto r = run_attn({"check", kSmall});
  CHECK(r.status == 0);
  CHECK(r.err == "");
  CHECK(r.out == "ok: 3 tokens, d_model 4, 2 heads (d_k 2, d_v 2), mask causal\n");
}

TEST_CASE("attn stages lists every stage with head and shape") {
  const auto r = run_attn({"stages", kSmall});
  REQUIRE(r.status == 0);
  const attn::io::ScenarioFile f = attn::io::load_scenario(kSmall);
  const attn::Trace t = attn::compute_trace(f.scenario);
  std::size_t lines = 0;
  for (char c : r.out) lines += c == '\n' ? 1 : 0;
  CHECK(lines == t.stages.size() + 1);  // plus the header line
  CHECK(r.out.find("weights") != std::string::npos);
  CHECK(r.out.find("3x2") != std::string::npos);  // q, k, v: 3 tokens x d_k 2
}

TEST_CASE("--help and --version exit 0 on stdout") {
  const auto help = run_attn({"--help"});
  CHECK(help.status == 0);
  CHECK(help.out.find("explain") != std::string::npos);
  CHECK(help.err == "");
  const auto sub_help = run_attn({"explain", "--help"});
  CHECK(sub_help.status == 0);
  CHECK(sub_help.out.find("--stage") != std::string::npos);
  const auto version = run_attn({"--version"});
  CHECK(version.status == 0);
  CHECK(version.out.rfind("attn ", 0) == 0);
}
