#pragma once
// Durations as kubectl spells them: "30s", "2m", "500ms", "1m30s", or a bare number of seconds.

#include <chrono>
#include <optional>
#include <string_view>

namespace icheck {

inline std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  if (text.empty()) {
    return std::nullopt;
  }
  double total_ms = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
      ++i;
    }
    if (start == i) {
      return std::nullopt;
    }
    const double number = std::stod(std::string(text.substr(start, i - start)));
    std::size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
      ++i;
    }
    const auto unit = text.substr(unit_start, i - unit_start);
    if (unit.empty() && unit_start == text.size() && start == 0) {
      return std::chrono::milliseconds(static_cast<long long>(number * 1000));
    }
    double scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : unit == "h" ? 3600000 : -1;
    if (scale < 0) {
      return std::nullopt;
    }
    total_ms += number * scale;
  }
  return std::chrono::milliseconds(static_cast<long long>(total_ms));
}

}  // namespace icheck
