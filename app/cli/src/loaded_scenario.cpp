// Loads, validates and computes one scenario (see loaded_scenario.hpp).
// The computed trace is also checked for NaN here: the core promises none,
// and the CLI must never print a trace that contains one.
#include "loaded_scenario.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/io/machine_limits.hpp"
#include "cli_error.hpp"

namespace attn::cli {

namespace {

// Only -inf (a masked logit) is a legitimate non-finite value in a trace.
// Read a column at a time: a derived stage (weights) then makes its column
// in one vectorised pass instead of an exp per cell read (at 2048 tokens and
// 12 heads, 50 million of them).
void check_no_nan(const LoadedScenario& loaded) {
  for (const Stage& st : loaded.trace.stages) {
    for (Eigen::Index c = 0; c < st.value.cols(); ++c) {
      const Eigen::VectorXd column = st.value.col(c);
      for (Eigen::Index r = 0; r < st.value.rows(); ++r) {
        const double v = column(r);
        if (std::isnan(v) || (std::isinf(v) && v > 0)) {
          throw CliError(loaded.path + ": stage \"" + to_string(st.id) + "\" cell [" + std::to_string(r) +
                         "][" + std::to_string(c) + "] is not a finite number; refusing to print it");
        }
      }
    }
  }
}

}  // namespace

LoadedScenario load_and_compute(const std::string& path) {
  LoadedScenario loaded;
  loaded.path = path;
  try {
    loaded.file = io::load_scenario(path, io::machine_limits());  // its messages already start with the path
  } catch (const io::FormatError& e) {
    throw CliError(e.what());
  }
  try {
    loaded.trace = compute_trace(loaded.file.scenario, io::machine_limits());
  } catch (const ComputeError& e) {
    throw CliError(path + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw CliError(path + ": " + e.what());  // validate() disagreed; not expected after loading
  }
  check_no_nan(loaded);
  return loaded;
}

}  // namespace attn::cli
