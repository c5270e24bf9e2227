// Compact number text for grid cells. A cell is only a few characters wide,
// and a blank cell reads as "masked", so numbers shrink ("-.18", ".07", "3e4")
// before they are dropped: callers try each candidate until one fits.
#pragma once

#include <string>
#include <vector>

namespace viz {

// v with at most `sig` significant digits (1 or more) in its shortest form:
// no leading zero, no trailing zeros, exponent form ("3e4", "1.2e-5") only
// when it is shorter than the plain one. NaN and ±∞ as "NaN", "∞", "−∞".
std::string compact_number(double v, int sig);

// compact_number for sig = max_sig down to 1, duplicates removed: the first
// is the most precise, the last the narrowest.
std::vector<std::string> compact_candidates(double v, int max_sig);

}  // namespace viz
