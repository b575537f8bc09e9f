#pragma once
// A share as whole percent for a detail line, defined for any double: a figure read from a
// tool's output can be 1e38, inf or nan, and static_cast<int> of such a product is undefined
// (it printed a negative percentage).

#include <cmath>
#include <string>

namespace icheck {

// "169" for 84.5 of 50; "?" when whole is not positive or either is not finite; "> 1000000"
// past a million percent, which no real measurement reaches.
inline std::string percent_text(double part, double whole) {
  if (!std::isfinite(part) || !std::isfinite(whole) || !(whole > 0))
    return "?";
  const double share = part / whole * 100;
  constexpr double kLimit = 1e6;
  if (!(share < kLimit))
    return "> 1000000";
  if (!(share > -kLimit))
    return "< -1000000";
  return std::to_string(std::llround(share));
}

} // namespace icheck
