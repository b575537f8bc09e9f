#pragma once
// Null-safe reads from yaml-cpp nodes (internal to recipe/). yaml-cpp throws on a subscript of
// a scalar and on failed conversions; manifests are user input, so every read here is total.

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::recipe::detail {

// The child at `key` of a map, or a null node.
YAML::Node child(const YAML::Node& node, const std::string& key);

// Defined and not null.
bool present(const YAML::Node& node);

// The scalar's text, or `fallback` for a missing, null or non-scalar node.
std::string scalar(const YAML::Node& node, std::string_view fallback = "");

// A whole number, or `fallback` (missing, templated like "${N}", or not a number).
int whole_number(const YAML::Node& node, int fallback);

// A scalar or a list of scalars, each split on whitespace (shell-style args in one string).
std::vector<std::string> words(const YAML::Node& node);

// A map of scalars (a ConfigMap's data) as strings; entries that are not scalars are left out.
std::map<std::string, std::string> string_map(const YAML::Node& node);

// 1-based line of a node in its file (0 when unknown).
int line_of(const YAML::Node& node);

}  // namespace icheck::recipe::detail
