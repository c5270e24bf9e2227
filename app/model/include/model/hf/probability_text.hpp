// How the Model view writes a probability and a change in one: three
// significant digits, so a vocabulary of 50,257 tokens does not print
// "0.0%" ten times, and a change named in percentage points ("pp"), the
// unit a difference of two percentages is in.
#pragma once

#include <string>

namespace model {

// "12.3%", "0.123%", "0.00123%"; below 0.001% in scientific form ("2.50e-06%").
std::string probability_text(double p);
// A change of probability in percentage points, two significant digits
// (it sits beside both probabilities): "+1.2 pp", "-0.046 pp", "0 pp".
std::string change_text(double delta);

}  // namespace model
