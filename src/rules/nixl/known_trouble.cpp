#include "rules/nixl/known_trouble.hpp"

#include "knowledge/evaluate.hpp"
#include "knowledge/finding.hpp"
#include "knowledge/load.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace icheck::rules {

knowledge::FactMap nixl_version_facts(const probe::NixlFacts& f) {
  knowledge::FactMap out;
  if (f.versions.nixl) {
    out.set("version.nixl", *f.versions.nixl);
    std::string wheel = text::lower(f.versions.nixl_package);
    std::replace(wheel.begin(), wheel.end(), '_', '-');
    if (wheel.starts_with("nixl-"))
      out.set("version." + wheel, *f.versions.nixl);
  }
  if (f.versions.ucx)
    out.set("version.ucx", *f.versions.ucx);
  return out;
}

std::vector<report::Finding> known_trouble(const knowledge::FactMap& facts) {
  return knowledge::to_findings(knowledge::evaluate(knowledge::trouble_rows(), facts));
}

}  // namespace icheck::rules
