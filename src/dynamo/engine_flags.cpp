#include "dynamo/engine_flags.hpp"

#include "util/text.hpp"

#include <algorithm>

namespace icheck::dynamo {
namespace {

std::optional<Role> split_role(std::string_view value) {
  const std::string low = text::lower(text::trim(value));
  if (low == role_name(Role::prefill))
    return Role::prefill;
  if (low == role_name(Role::decode))
    return Role::decode;
  return std::nullopt;
}

} // namespace

std::optional<Role> role_from_flags(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (word == kIsPrefillWorkerFlag)
      return Role::prefill;
    if (word == kIsDecodeWorkerFlag)
      return Role::decode;
    if (word.starts_with(kDisaggregationModeFlag)) {
      const auto rest = word.substr(kDisaggregationModeFlag.size());
      if (rest.starts_with('=')) {
        if (auto role = split_role(rest.substr(1)))
          return role;
      } else if (rest.empty() && i + 1 < words.size()) {
        if (auto role = split_role(words[i + 1]))
          return role;
      }
    }
  }
  return std::nullopt;
}

bool launches_backend(const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& w) { return w.starts_with(kBackendModulePrefix); });
}

} // namespace icheck::dynamo
