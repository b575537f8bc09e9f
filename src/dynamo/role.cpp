#include "dynamo/role.hpp"

#include "dynamo/command_words.hpp"
#include "dynamo/engine_flags.hpp"
#include "util/text.hpp"

#include <array>
#include <utility>

namespace icheck::dynamo {
namespace {

constexpr std::array<std::pair<Role, std::string_view>, 6> kNames{{
    {Role::frontend, "frontend"},
    {Role::prefill, "prefill"},
    {Role::decode, "decode"},
    {Role::worker, "worker"},
    {Role::planner, "planner"},
    {Role::epp, "epp"},
}};

Role from_name(std::string_view name) {
  const std::string low = text::lower(text::trim(name));
  for (const auto& [role, spelled] : kNames) {
    if (low == spelled)
      return role;
  }
  return Role::unknown;
}

// Older recipes tell prefill from decode only by the service's name ("VllmPrefillWorker").
Role from_contained_name(std::string_view name) {
  const std::string low = text::lower(name);
  for (Role role : {Role::prefill, Role::decode}) {
    if (low.find(role_name(role)) != std::string::npos)
      return role;
  }
  return Role::unknown;
}

} // namespace

std::string_view role_name(Role role) {
  for (const auto& [known, spelled] : kNames) {
    if (known == role)
      return spelled;
  }
  return "";
}

std::string_view role_label(Role role) {
  return role == Role::unknown ? "unknown" : role_name(role);
}

bool is_worker(Role role) {
  return role == Role::prefill || role == Role::decode || role == Role::worker;
}

bool is_split(Role role) {
  return role == Role::prefill || role == Role::decode;
}

MultinodePart multinode_part(std::string_view name) {
  if (name.ends_with("-ldr") || name.find("-ldr-") != std::string_view::npos)
    return MultinodePart::leader;
  if (name.ends_with("-wkr") || name.find("-wkr-") != std::string_view::npos)
    return MultinodePart::worker;
  return MultinodePart::single;
}

std::string_view multinode_part_name(MultinodePart part) {
  switch (part) {
  case MultinodePart::leader:
    return "leader";
  case MultinodePart::worker:
    return "worker";
  case MultinodePart::single:
    break;
  }
  return "";
}

std::string multinode_group(std::string_view name) {
  for (std::string_view suffix : {"-ldr", "-wkr"}) {
    if (name.ends_with(suffix))
      return std::string(name.substr(0, name.size() - suffix.size()));
    if (auto at = name.find(std::string(suffix) + "-"); at != std::string_view::npos)
      return std::string(name.substr(0, at));
  }
  return {};
}

bool is_known_component_type(std::string_view type) {
  return text::trim(type).empty() || from_name(type) != Role::unknown;
}

RoleReading read_role(const RoleEvidence& e) {
  RoleReading out;
  const Role type = from_name(e.component_type);
  if (!is_known_component_type(e.component_type))
    out.not_understood = "component type '" + std::string(text::trim(e.component_type)) + "'";
  if (type != Role::unknown && type != Role::worker)
    return {type, "the component type", ""};  // prefill, decode; frontend, planner, epp
  auto decided = [&](Role role, std::string by) {
    out.role = role;
    out.by = std::move(by);
    return out;
  };
  if (const Role sub = from_name(e.sub_component_type); is_split(sub))
    return decided(sub, "the sub-component type");
  const auto words = command_words(e.command_line, e.env);
  if (const auto flag = role_flag_reading(words)) {
    if (flag->role)
      return decided(*flag->role, "the engine's role flag " + flag->spelled);
    out.not_understood += (out.not_understood.empty() ? "" : ", ") + flag->spelled;
    return decided(Role::unknown, "");
  }
  if (auto by_env = role_from_env(e.env))
    return decided(*by_env, "the engine's role variable");
  // No role flag makes an aggregated worker only where the type says worker (or none is
  // given); under a type nobody knows, a missing flag proves nothing.
  if (launches_backend(words) && out.not_understood.empty())
    return decided(Role::worker, "a Dynamo backend started without a role flag");
  if (const Role by_name = from_contained_name(e.name); by_name != Role::unknown)
    return decided(by_name, "its name");
  return decided(type, type == Role::worker ? "the component type" : "");
}

Role classify_role(const RoleEvidence& e) {
  return read_role(e).role;
}

} // namespace icheck::dynamo
