#pragma once
// The versions the nixl and ucx layers read, judged by the knowledge rows
// (src/knowledge/data/trouble_*.yaml): each hit is a finding in its row's layer. Pure.

#include "knowledge/facts.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "report/model.hpp"

#include <vector>

namespace icheck::rules {

// version.nixl (and version.nixl-cuXX for a wheel) and version.ucx from NIXL's wheel or
// versions file.
knowledge::FactMap nixl_version_facts(const probe::NixlFacts& f);

// Every known-trouble row that fires on `facts`, as findings.
std::vector<report::Finding> known_trouble(const knowledge::FactMap& facts);

}  // namespace icheck::rules
