#pragma once
// The flat fact map rows are judged against (docs/knowledge.md "Fact names"): "env.UCX_TLS",
// "version.nixl", "prefill.pod.hostNetwork", ... A fact not in the map is unknown, unless its
// prefix was read whole ("env." when the whole environment was read): then it is known absent.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace icheck::knowledge {

class FactMap {
public:
  void set(std::string name, std::string value) { m_values[std::move(name)] = std::move(value); }
  // Every fact under `prefix` ("env.", "prefill.env.") was read: one not in the map is absent.
  void complete(std::string prefix) { m_complete.insert(std::move(prefix)); }

  std::optional<std::string_view> get(std::string_view name) const;
  bool known_absent(std::string_view name) const;
  // Every fact of `other` under `prefix` ("prefill."), its complete prefixes too.
  void merge(const FactMap& other, std::string_view prefix);

  const std::map<std::string, std::string, std::less<>>& values() const { return m_values; }
  const std::set<std::string, std::less<>>& complete_prefixes() const { return m_complete; }

private:
  std::map<std::string, std::string, std::less<>> m_values;
  std::set<std::string, std::less<>> m_complete;
};

// A FactMap from a row's example: the example is the whole case, so a fact it does not name is
// known absent (every prefix complete).
FactMap from_example(const std::map<std::string, std::string>& example);

}  // namespace icheck::knowledge
