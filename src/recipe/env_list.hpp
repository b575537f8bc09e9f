#pragma once
// Kubernetes env / envFrom lists (internal to recipe/).

#include "recipe/model.hpp"

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace icheck::recipe::detail {

// `- name: X` with `value` or `valueFrom` (shown as a reference, never resolved).
std::vector<EnvVar> parse_env_list(const YAML::Node& list);

// Later entries override earlier ones of the same name, keeping the first position
// (the operator applies graph-level env first, component env over it).
void merge_env(std::vector<EnvVar>& into, const std::vector<EnvVar>& over);

// `- secretRef: {name: x}` / `- configMapRef: {name: y}` -> "secretRef:x", "configMapRef:y".
std::vector<std::string> parse_env_from(const YAML::Node& list);

}  // namespace icheck::recipe::detail
