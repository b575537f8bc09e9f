#include "knowledge/facts.hpp"

namespace icheck::knowledge {

std::optional<std::string_view> FactMap::get(std::string_view name) const {
  auto it = m_values.find(name);
  if (it == m_values.end())
    return std::nullopt;
  return std::string_view(it->second);
}

bool FactMap::known_absent(std::string_view name) const {
  if (m_values.contains(name))
    return false;
  for (const auto& prefix : m_complete)
    if (name.starts_with(prefix))
      return true;
  return false;
}

void FactMap::merge(const FactMap& other, std::string_view prefix) {
  for (const auto& [name, value] : other.m_values)
    m_values[std::string(prefix) + name] = value;
  for (const auto& p : other.m_complete)
    m_complete.insert(std::string(prefix) + p);
}

FactMap from_example(const std::map<std::string, std::string>& example) {
  FactMap out;
  for (const auto& [name, value] : example)
    out.set(name, value);
  out.complete("");
  return out;
}

}  // namespace icheck::knowledge
