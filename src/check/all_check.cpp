#include "check/all_check.hpp"

#include "check/env_check.hpp"
#include "check/env_live_check.hpp"
#include "check/known_trouble_pods.hpp"
#include "check/nixl_check.hpp"
#include "check/node_check.hpp"
#include "check/pod_pipeline.hpp"
#include "check/stopped.hpp"
#include "recipe/load.hpp"
#include "rules/pair/cross_pod.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace icheck::check {
namespace {

void add_cross_pod(PodRun& run) {
  std::vector<rules::PodFacts> facts;
  std::vector<ProbedPod*> owners;
  for (auto& p : run.probed) {
    if (p.parsed) {
      facts.push_back({p.probe.pod.name, p.probe.pod.role, &p.node, &p.nixl, p.backends.path()});
      owners.push_back(&p);
    }
  }
  auto findings = rules::cross_pod_findings(facts);
  for (std::size_t i = 0; i < owners.size(); ++i) {
    auto& target = owners[i]->target.findings;
    target.insert(target.end(), findings[i].begin(), findings[i].end());
  }
}

// `all` probes the pods of the deployments its recipe defines (a --selector narrows them, --pod
// names them). A --deployment the recipe does not define would select nothing: refused saying
// what it defines, as are --recipe and --local, which name other targets.
std::optional<std::string> targets_beside_recipe(const TargetOptions& t,
                                                 const std::vector<std::string>& names) {
  for (const auto& [given, flag] :
       {std::pair{!t.recipe.empty(), "--recipe"}, std::pair{t.local, "--local"}}) {
    if (given)
      return std::string("all probes the deployments its RECIPE_DIR defines: ") + flag +
             " is for node and nixl";
  }
  if (!t.deployment.empty() && std::find(names.begin(), names.end(), t.deployment) == names.end())
    return "--deployment " + t.deployment + " is not a deployment the recipe defines (" +
           (names.empty() ? std::string("it defines none") : join(names)) + ")";
  return std::nullopt;
}

}  // namespace

Expected<report::Report> check_all(const Options& options) {
  auto loaded = load_env_report(options.path, options.recursive);
  if (!loaded) {
    return loaded.error();
  }
  auto* report = &loaded->report;
  report->mode = "all";
  const auto live = live_recipe(loaded->files, *report);
  if (auto wrong = targets_beside_recipe(options.targets, live.names()))
    return Error{*wrong};
  auto run = run_pods(options, live.names(), probe_script(true), report::Layer::fabric);
  if (!run) {
    return stopped(std::move(*report), run.error());  // the recipe's targets are kept
  }
  start_report(*run, *report);
  judge_node_pods(*run);
  for (auto& p : run->probed) {
    if (p.parsed) {
      add_live_findings(p.probe.pod, p.node, live, p.target, &p.backends);
    }
  }
  add_cross_pod(*run);
  add_same_node_findings(*run);
  add_pair_link_findings(*run, pair_candidates(*run));
  judge_nixl_pods(*run, options, *report);
  add_known_trouble(*run);
  add_pod_targets(*run, *report);
  return std::move(*report);
}

}  // namespace icheck::check
