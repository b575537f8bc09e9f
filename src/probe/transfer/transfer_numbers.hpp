#pragma once
// Internal to the transfer-output parsers: whole-token numbers and log-prefix stripping.

#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

#include "util/text.hpp"

namespace icheck::probe::transfer_detail {

inline std::optional<double> number(std::string_view s) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Every field a number: a table row. Empty for any other line.
inline std::vector<double> numbers(std::string_view line) {
  std::vector<double> out;
  for (auto w : text::words(line)) {
    auto v = number(w);
    if (!v) return {};
    out.push_back(*v);
  }
  return out;
}

// CI logs prefix each line with "[2026-07-28T10:17:33.487Z] "; a bracket without blanks
// inside is such a stamp ("[thread 0]" is not).
inline std::string_view strip_stamp(std::string_view line) {
  auto t = text::trim(line);
  if (!t.starts_with('[')) return t;
  auto close = t.find(']');
  if (close == std::string_view::npos) return t;
  auto inside = t.substr(1, close - 1);
  if (inside.find(' ') != std::string_view::npos || inside.find(':') == std::string_view::npos)
    return t;
  return text::trim(t.substr(close + 1));
}

}  // namespace icheck::probe::transfer_detail
