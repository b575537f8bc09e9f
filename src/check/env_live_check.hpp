#pragma once
#include "check/options.hpp"
#include "kube/pods.hpp"
#include "probe/facts.hpp"
#include "recipe/model.hpp"
#include "rules/nixl/nixl_backend.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

#include <vector>

namespace icheck::check {

// `env --live`: the recipe's report, then per running worker pod of its deployments the
// recipe's transport settings against what the pod really has (operator and image included).
Expected<report::Report> check_env_live(const Options& options);

// The deployments of a recipe by name: the first file defining each (alternatives are said as
// a limitation in `report`). Shared with `all`.
struct LiveRecipe {
  struct Ref {
    const recipe::ManifestFile* file = nullptr;
    const recipe::Deployment* dgd = nullptr;
  };
  std::vector<Ref> refs;
  std::vector<std::string> names() const;
};
LiveRecipe live_recipe(const std::vector<recipe::ManifestFile>& files, report::Report& report);

// The pod's transport env against its service in the recipe, added to `target`; with the
// pod's KV path (known when the NIXL fragment ran: `all`), that path against the recipe's too.
void add_live_findings(const kube::PodInfo& pod, const probe::NodeFacts& facts,
                       const LiveRecipe& recipe, report::Target& target,
                       const rules::KvBackends* pod_kv = nullptr);

}  // namespace icheck::check
