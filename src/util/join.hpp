#pragma once
// The one way lists become text in details and messages: "a, b, c".

#include <string>
#include <vector>

namespace icheck {

inline std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

}  // namespace icheck
