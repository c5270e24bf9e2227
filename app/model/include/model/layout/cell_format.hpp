// Compact number text for grid cells. A cell is only a few characters wide,
// and a blank cell reads as "not computed", so numbers shrink ("-.18", ".07",
// "3e4") instead of vanishing: callers try each candidate until one fits.
#pragma once

#include <string>
#include <vector>

namespace model {

// The compact format, for any double v and sig >= 1 significant digits:
// - Shortest of printf's plain and exponent forms: no leading zero (".5",
//   "-.006"), no trailing zeros, no "+" or leading zeros in the exponent
//   ("3e4", "1.2e-5", "-1e30"); a tie goes to the plain form. Integers
//   below 1e15 may keep all their digits when that is no longer ("31234").
// - Read-back rule: every string, read as a decimal number, is within half a
//   unit of its last written digit of v, hence within 0.5·10^(1−sig)·|v|.
// - Length: at most sig + 7 characters (sign, point, "e-" and three exponent
//   digits), so at sig = 1 never more than 7 ("-5e-324"), for every finite v
//   from ±0 through the subnormals to ±1.8e308. Only ASCII for finite values.
// - 0 and −0 read "0"; NaN and ±∞ (masked logits) "NaN", "∞", "−∞".
std::string compact_number(double v, int sig);

// The "≈0" rule: a nonzero value may read "≈0" when it rounds to 0 at the
// precision a typical value of its grid shows, i.e. when
// |v| < ½·10^(⌊log10 m⌋ − sig + 1), m the median magnitude of the grid's
// nonzero finite values (a median, so one −1e30 does not zero its row).
// Returns that bound, 0 when no value may read "≈0".
double near_zero_bound(const std::vector<double>& grid_values, int sig);

// compact_number for sig = max_sig down to 1, duplicates removed, then "≈0"
// when 0 < |v| < near_zero and it is narrower than the last number (so never
// instead of a one-digit number): the first is the most precise, the last the
// narrowest, and none is wider than the one before it.
std::vector<std::string> compact_candidates(double v, int max_sig, double near_zero = 0);

// The last of compact_candidates without building the others.
std::string narrowest_candidate(double v, double near_zero = 0);

}  // namespace model
