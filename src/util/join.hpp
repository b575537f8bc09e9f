#pragma once
// The one way lists become text in details and messages: "a, b, c".

#include <algorithm>
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

// The first `most` items joined, then how many were left out: "a, b, c and 2 more". Bounds what a
// list from the outside (documents, files, pods) adds to one line.
inline std::string join_first(const std::vector<std::string>& items, std::size_t most,
                              const std::string& sep = ", ") {
  const auto kept = std::min(most, items.size());
  std::string out = join({items.begin(), items.begin() + static_cast<std::ptrdiff_t>(kept)}, sep);
  if (items.size() > kept)
    out += " and " + std::to_string(items.size() - kept) + " more";
  return out;
}

}  // namespace icheck
