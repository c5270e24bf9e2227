// Probabilities as the Model view prints them (probability_text.hpp).
#include "model/hf/probability_text.hpp"

#include <cmath>
#include <cstdio>

namespace model {

namespace {

// `value` with `digits` significant digits (trailing zeros kept, so "50.0"
// says how precise it is), in scientific form below 0.001, then `unit`.
std::string significant(double value, int digits, bool with_sign, const char* unit) {
  char buf[48];
  if (value == 0) std::snprintf(buf, sizeof buf, "0%s", unit);
  else if (std::abs(value) < 1e-3) std::snprintf(buf, sizeof buf, with_sign ? "%+.*e%s" : "%.*e%s", digits - 1, value, unit);
  else std::snprintf(buf, sizeof buf, with_sign ? "%+#.*g%s" : "%#.*g%s", digits, value, unit);
  return buf;
}

}  // namespace

std::string probability_text(double p) { return significant(100 * p, 3, false, "%"); }

std::string change_text(double delta) { return significant(100 * delta, 2, true, " pp"); }

}  // namespace model
