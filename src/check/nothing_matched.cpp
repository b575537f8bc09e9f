#include "check/nothing_matched.hpp"

#include "exec/child.hpp"
#include "kube/kubectl_argv.hpp"
#include "util/join.hpp"

#include <map>
#include <set>

namespace icheck::check {
namespace {

constexpr std::size_t k_list_cap = 64u << 20;  // the pod list of a large cluster

// namespace -> its deployments, both sorted.
using Placement = std::map<std::string, std::set<std::string>>;

Placement placement(const std::vector<kube::PodInfo>& workers) {
  Placement where;
  for (const auto& pod : workers) {
    auto& deployments = where[pod.namespace_];
    if (!pod.dgd.empty()) {
      deployments.insert(pod.dgd);
    }
  }
  return where;
}

std::string listed(const std::set<std::string>& names) {
  return join(std::vector<std::string>(names.begin(), names.end()));
}

// "dynamo (llama-70b-disagg, other-dgd) and staging (llama-70b-disagg)"
std::string namespaces_phrase(const Placement& where) {
  std::vector<std::string> parts;
  for (const auto& [ns, deployments] : where) {
    parts.push_back(ns + (deployments.empty() ? "" : " (" + listed(deployments) + ")"));
  }
  return join(parts);
}

std::vector<std::string> deployment_hints(const Placement& where, const std::string& ns,
                                          const std::string& deployment) {
  std::vector<std::string> hints;
  std::vector<std::string> homes;
  for (const auto& [other, deployments] : where) {
    if (deployments.count(deployment) > 0) {
      homes.push_back(other);
    }
  }
  if (!homes.empty()) {
    hints.push_back("deployment " + deployment + " has worker pods in namespace " + join(homes) +
                    ": try -n " + homes.front() + ", or -A");
  }
  const auto here = where.find(ns);
  if (here != where.end() && !here->second.empty()) {
    hints.push_back("the deployments with worker pods in namespace " + ns + ": " +
                    listed(here->second));
  } else if (homes.empty() && !where.empty()) {
    hints.push_back("the deployments with worker pods: " + namespaces_phrase(where));
  }
  return hints;
}

}  // namespace

std::vector<std::string> where_workers_are(const std::vector<kube::PodInfo>& workers,
                                           const std::string& ns, const std::string& deployment) {
  const Placement where = placement(workers);
  if (where.empty()) {
    return {"no namespace this user can list has Dynamo worker pods"};
  }
  if (!deployment.empty()) {
    return deployment_hints(where, ns, deployment);
  }
  if (where.count(ns) > 0) {
    return {};  // workers here, but the selection matched none: its own words say why
  }
  return {"Dynamo worker pods run in namespace " + namespaces_phrase(where) + ": try -n " +
          where.begin()->first + ", or -A"};
}

std::vector<std::string> look_elsewhere(const KubeSession& session, const TargetOptions& targets) {
  exec::ChildSpec spec;
  spec.argv = kube::get_pods_argv(session.base, "", true, kube::default_selector());
  spec.deadline = session.timeout;
  spec.output_cap = k_list_cap;
  const auto r = exec::run_child(spec);
  if (!r.ok()) {
    return {};
  }
  const auto pods = kube::parse_pods_json(r.out, {});
  if (!pods) {
    return {};
  }
  const std::string ns = session.resolved.all_namespaces ? "" : session.resolved.namespace_;
  return where_workers_are(kube::select_targets(*pods, false), ns, targets.deployment);
}

}  // namespace icheck::check
