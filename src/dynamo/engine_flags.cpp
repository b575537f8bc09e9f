#include "dynamo/engine_flags.hpp"

#include "util/text.hpp"
#include "util/truthy.hpp"

#include <algorithm>

namespace icheck::dynamo {
namespace {

using enum RoleFlagKind;

// A flag or variable that names its role by itself.
Role fixed_role(RoleFlagKind kind) {
  return kind == RoleFlagKind::prefill ? Role::prefill : Role::decode;
}

} // namespace

const std::vector<RoleFlag>& role_flags() {
  static const std::vector<RoleFlag> flags{{"--disaggregation-mode", value},
                                           {"--is-prefill-worker", prefill},
                                           {"--is-decode-worker", decode},
                                           {"--server_role", value},
                                           {"--server-role", value}};
  return flags;
}

const std::vector<RoleFlag>& role_env_vars() {
  static const std::vector<RoleFlag> vars{{"DYN_VLLM_DISAGGREGATION_MODE", value},
                                          {"DYN_TRTLLM_DISAGGREGATION_MODE", value},
                                          {"DYN_VLLM_IS_PREFILL_WORKER", prefill},
                                          {"DYN_VLLM_IS_DECODE_WORKER", decode}};
  return vars;
}

std::optional<Role> role_from_value(std::string_view value) {
  const std::string low = text::lower(text::trim(value));
  if (low == role_name(Role::prefill) || low == "context")
    return Role::prefill;
  if (low == role_name(Role::decode) || low == "generation")
    return Role::decode;
  return std::nullopt;
}

std::optional<RoleFlagReading> role_flag_reading(const std::vector<std::string>& words) {
  auto reading = [](std::string_view flag, std::string_view value) {
    std::optional<Role> role = role_from_value(value);
    const std::string low = text::lower(text::trim(value));
    if (!role && (low == "agg" || low == "null" || low == "prefill_and_decode"))
      role = Role::worker;  // Dynamo's, SGLang's and TRT-LLM's spellings of "aggregated"
    return RoleFlagReading{role, std::string(flag) + " '" + std::string(value) + "'"};
  };
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    for (const auto& flag : role_flags()) {
      if (!word.starts_with(flag.name))
        continue;
      const auto rest = word.substr(flag.name.size());
      if (flag.kind != value && rest.empty())
        return RoleFlagReading{fixed_role(flag.kind), std::string(flag.name)};
      if (flag.kind != value)
        continue;
      if (rest.starts_with('='))
        return reading(flag.name, rest.substr(1));
      if (rest.empty())
        return reading(flag.name, i + 1 < words.size() ? std::string_view(words[i + 1]) : "");
    }
  }
  return std::nullopt;
}

std::optional<Role> role_from_env(const std::map<std::string, std::string>& env) {
  for (const auto& var : role_env_vars()) {
    const auto found = env.find(std::string(var.name));
    if (found == env.end())
      continue;
    if (var.kind == value) {
      if (auto role = role_from_value(found->second))
        return role;
    } else if (truthy(found->second)) {
      return fixed_role(var.kind);
    }
  }
  return std::nullopt;
}

bool launches_backend(const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& w) { return w.starts_with(kBackendModulePrefix); });
}

} // namespace icheck::dynamo
