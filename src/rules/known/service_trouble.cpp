#include "rules/known/service_trouble.hpp"

#include "knowledge/evaluate.hpp"
#include "knowledge/finding.hpp"
#include "knowledge/load.hpp"
#include "recipe/shape.hpp"
#include "rules/known/stack_facts.hpp"

#include <algorithm>

namespace icheck::rules::known {
namespace {

bool over_pair(const knowledge::Row& row) {
  return std::any_of(row.when.begin(), row.when.end(), [](const knowledge::Condition& c) {
    return c.fact.starts_with("pair.") || c.fact.starts_with("prefill.") ||
           c.fact.starts_with("decode.");
  });
}

// A row about moving KV between workers: in NIXL's layer, or over the KV connector, its
// backends, the KV transfer config or TRT-LLM's cache transceiver.
bool about_kv_transfer(const knowledge::Row& row) {
  return row.layer == report::Layer::nixl || over_pair(row) ||
         std::any_of(row.when.begin(), row.when.end(), [](const knowledge::Condition& c) {
           return c.fact.starts_with("engine.kv_") || c.fact == "engine.nixl_backends" ||
                  c.fact.starts_with("engine.cache_transceiver.");
         });
}

void add(std::vector<report::Finding>& out, const knowledge::Hit& hit, const std::string& who) {
  auto f = knowledge::to_finding(hit);
  f.id = who + "/" + f.name;
  f.detail = who + ": " + f.detail;
  if (std::none_of(out.begin(), out.end(),
                   [&](const auto& x) { return x.id == f.id && x.detail == f.detail; }))
    out.push_back(std::move(f));
}

}  // namespace

std::vector<report::Finding> service_findings(const recipe::Deployment& dgd) {
  std::vector<report::Finding> out;
  std::vector<knowledge::FactMap> facts;
  // Aggregated: KV never moves between workers, so no KV-transfer row judges it (issue 40: the
  // aggregated SGLang GB200 recipe was blocked at nvlink by a Mooncake KV row).
  const bool moves_kv = !recipe::is_aggregated(dgd);
  for (const auto& s : dgd.services) {
    facts.push_back(service_facts(s));
    for (const auto& hit : knowledge::evaluate(knowledge::trouble_rows(), facts.back()))
      if (!over_pair(*hit.row) && (moves_kv || !about_kv_transfer(*hit.row)))
        add(out, hit, s.name);
  }
  for (std::size_t i = 0; i < dgd.services.size(); ++i)
    for (std::size_t j = 0; j < dgd.services.size(); ++j) {
      if (dgd.services[i].role != dynamo::Role::prefill ||
          dgd.services[j].role != dynamo::Role::decode)
        continue;
      auto pair = pair_facts(facts[i], facts[j], std::nullopt, std::nullopt);
      for (const auto& hit : knowledge::evaluate(knowledge::trouble_rows(), pair))
        if (over_pair(*hit.row))
          add(out, hit, dgd.services[i].name + "+" + dgd.services[j].name);
    }
  return out;
}

}  // namespace icheck::rules::known
