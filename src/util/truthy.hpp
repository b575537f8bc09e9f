#pragma once
// A yes/no setting as UCX and the Dynamo tools read it: y, yes, on, 1, true in any case.

#include <cctype>
#include <string>
#include <string_view>

namespace icheck {

inline bool truthy(std::string_view value) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  std::string lower;
  for (char c : value) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "y" || lower == "yes" || lower == "on" || lower == "1" || lower == "true";
}

}  // namespace icheck
