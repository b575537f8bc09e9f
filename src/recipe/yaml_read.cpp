#include "recipe/yaml_read.hpp"

#include <charconv>
#include <sstream>

namespace icheck::recipe::detail {

YAML::Node child(const YAML::Node& node, const std::string& key) {
  if (!node.IsDefined() || !node.IsMap()) {
    return YAML::Node();
  }
  YAML::Node value = node[key];
  return value.IsDefined() ? value : YAML::Node();
}

bool present(const YAML::Node& node) { return node.IsDefined() && !node.IsNull(); }

std::string scalar(const YAML::Node& node, std::string_view fallback) {
  if (!node.IsDefined() || !node.IsScalar()) {
    return std::string(fallback);
  }
  return node.Scalar();
}

int whole_number(const YAML::Node& node, int fallback) {
  const std::string text = scalar(node);
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return fallback;
  }
  return value;
}

static void append_words(const std::string& text, std::vector<std::string>& out) {
  std::istringstream stream(text);
  for (std::string word; stream >> word;) {
    out.push_back(word);
  }
}

std::vector<std::string> words(const YAML::Node& node) {
  std::vector<std::string> out;
  if (node.IsDefined() && node.IsScalar()) {
    append_words(node.Scalar(), out);
  } else if (node.IsDefined() && node.IsSequence()) {
    for (const auto& item : node) {
      append_words(scalar(item), out);
    }
  }
  return out;
}

std::map<std::string, std::string> string_map(const YAML::Node& node) {
  std::map<std::string, std::string> out;
  if (node.IsDefined() && node.IsMap()) {
    for (const auto& entry : node) {
      if (entry.second.IsDefined() && entry.second.IsScalar()) {
        out[scalar(entry.first)] = entry.second.Scalar();
      }
    }
  }
  return out;
}

int line_of(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

}  // namespace icheck::recipe::detail
