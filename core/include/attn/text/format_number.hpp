// The one number format every view, caption and report uses: compact
// ("%.*g"), "−∞" for -inf. Its own header so code that prints a number does
// not include the explainer (or anything else) to do it.
#pragma once

#include <string>

namespace attn {

// Formats a number the way every panel shows it: compact, "−∞" for -inf.
std::string format_number(double v, int precision = 4);

}  // namespace attn
