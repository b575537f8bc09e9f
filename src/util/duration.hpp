#pragma once
// Durations as kubectl spells them: "30s", "2m", "500ms", "1m30s", or a bare number of seconds.

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace icheck {

// nullopt for anything else: no sign, no exponent, one '.' per number, known units, under a year.
inline std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  if (text.empty()) {
    return std::nullopt;
  }
  constexpr double k_year_ms = 365.0 * 24 * 3600 * 1000;
  double total_ms = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    int dots = 0;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
      dots += text[i] == '.';
      ++i;
    }
    const auto digits = text.substr(start, i - start);
    if (digits.empty() || dots > 1 || digits == ".") {
      return std::nullopt;
    }
    double number = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      return std::nullopt;
    }
    const std::size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
      ++i;
    }
    const auto unit = text.substr(unit_start, i - unit_start);
    double scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : unit == "h" ? 3600000 : -1;
    if (unit.empty() && start == 0 && i == text.size()) {
      scale = 1000;  // a bare number is seconds
    }
    if (scale < 0) {
      return std::nullopt;
    }
    total_ms += number * scale;
    if (total_ms > k_year_ms) {
      return std::nullopt;
    }
  }
  return std::chrono::milliseconds(std::llround(total_ms));
}

// The way kubectl (Go's time.Duration) prints one: "500ms", "3s", "1.5s", "2m0s", "1m30s".
inline std::string format_duration(std::chrono::milliseconds d) {
  long long ms = d.count();
  if (ms < 1000) {
    return std::to_string(ms) + "ms";
  }
  std::string out;
  if (ms >= 3600000) {
    out += std::to_string(ms / 3600000) + "h";
    ms %= 3600000;
  }
  if (!out.empty() || ms >= 60000) {
    out += std::to_string(ms / 60000) + "m";
    ms %= 60000;
  }
  out += std::to_string(ms / 1000);
  if (ms % 1000 != 0) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);
    frac.erase(frac.find_last_not_of('0') + 1);
    out += "." + frac;
  }
  return out + "s";
}

}  // namespace icheck
