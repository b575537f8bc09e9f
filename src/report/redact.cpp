#include "report/redact.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace icheck::report {

bool looks_secret(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  constexpr std::array<std::string_view, 5> words{"TOKEN", "SECRET", "PASSWORD", "KEY",
                                                  "CREDENTIAL"};
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) {
    return upper.find(w) != std::string::npos;
  });
}

std::string shown_value(std::string_view name, std::string_view value) {
  if (looks_secret(name) && !value.empty()) {
    return "***";
  }
  return std::string(value);
}

}  // namespace icheck::report
