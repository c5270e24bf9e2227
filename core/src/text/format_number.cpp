// The shared number format (attn/text/format_number.hpp): snprintf's %g at
// the asked precision, with the infinities and zero spelled as the views
// show them.
#include "attn/text/format_number.hpp"

#include <cmath>
#include <cstdio>

namespace attn {

std::string format_number(double v, int precision) {
  if (std::isnan(v)) return "NaN";  // never expected: computation rejects NaN
  if (std::isinf(v)) return v < 0 ? "−∞" : "∞";
  if (v == 0) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

}  // namespace attn
