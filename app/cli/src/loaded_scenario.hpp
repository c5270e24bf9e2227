// Loading a scenario file and computing its trace, the first step of every
// command. Failures become CliError (exit 2) with the file name in front, so
// each command's own code only deals with the happy path.
#pragma once

#include <string>

#include "attn/io/scenario_file.hpp"
#include "attn/compute/trace.hpp"

namespace attn::cli {

struct LoadedScenario {
  std::string path;
  io::ScenarioFile file;
  Trace trace;
};

LoadedScenario load_and_compute(const std::string& path);

}  // namespace attn::cli
