// The worst of many scalar comparisons against a reference, for the "why"
// tests: each value is allowed tol × max(1, |reference|), and a failure
// prints the one that exceeded it most (NaN counts as worst).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace why_test {

struct WorstValue {
  double tol = 1e-9;
  double excess = 0;  // |ours − reference| / allowed; above 1 fails
  std::string where;
  double ours = 0, reference = 0;

  void see(const std::string& what, double a, double b) {
    double e = std::abs(a - b) / (tol * std::max(1.0, std::abs(b)));
    if (std::isnan(e)) e = 1e300;
    if (where.empty() || e > excess) excess = e, where = what, ours = a, reference = b;
  }
  bool ok() const { return excess <= 1.0; }
  std::string text() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, ": ours %.17g, reference %.17g (%.3g × the tolerance %g)", ours, reference, excess,
                  tol);
    return "worst: " + where + buf;
  }
};

}  // namespace why_test
