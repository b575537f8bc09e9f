#include "recipe/env_list.hpp"

#include "recipe/yaml_read.hpp"

#include <algorithm>

namespace icheck::recipe::detail {

// valueFrom as a reference: the kind of source and which entry, never its content.
static std::string reference(const YAML::Node& value_from) {
  for (const char* kind : {"secretKeyRef", "configMapKeyRef"}) {
    const YAML::Node ref = child(value_from, kind);
    if (present(ref)) {
      return std::string(kind) + ":" + scalar(child(ref, "name")) + "/" +
             scalar(child(ref, "key"));
    }
  }
  const YAML::Node field = child(value_from, "fieldRef");
  if (present(field)) {
    return "fieldRef:" + scalar(child(field, "fieldPath"));
  }
  const YAML::Node resource = child(value_from, "resourceFieldRef");
  if (present(resource)) {
    return "resourceFieldRef:" + scalar(child(resource, "resource"));
  }
  return "valueFrom";
}

std::vector<EnvVar> parse_env_list(const YAML::Node& list) {
  std::vector<EnvVar> out;
  if (!list.IsDefined() || !list.IsSequence()) {
    return out;
  }
  for (const auto& item : list) {
    EnvVar var{scalar(child(item, "name")), scalar(child(item, "value")), false};
    if (var.name.empty()) {
      continue;
    }
    const YAML::Node value_from = child(item, "valueFrom");
    if (present(value_from)) {
      var.value = reference(value_from);
      var.is_reference = true;
    }
    out.push_back(std::move(var));
  }
  return out;
}

void merge_env(std::vector<EnvVar>& into, const std::vector<EnvVar>& over) {
  for (const auto& var : over) {
    auto same = std::find_if(into.begin(), into.end(),
                             [&](const EnvVar& old) { return old.name == var.name; });
    if (same == into.end()) {
      into.push_back(var);
    } else {
      *same = var;
    }
  }
}

std::vector<std::string> parse_env_from(const YAML::Node& list) {
  std::vector<std::string> out;
  if (!list.IsDefined() || !list.IsSequence()) {
    return out;
  }
  for (const auto& item : list) {
    for (const char* kind : {"secretRef", "configMapRef"}) {
      const YAML::Node ref = child(item, kind);
      if (present(ref)) {
        out.push_back(std::string(kind) + ":" + scalar(child(ref, "name")));
      }
    }
  }
  return out;
}

}  // namespace icheck::recipe::detail
