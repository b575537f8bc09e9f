#include "check/cluster_names.hpp"

#include "check/kube_session.hpp"
#include "exec/child.hpp"
#include "kube/kubectl_argv.hpp"
#include "kube/pods.hpp"
#include "util/text.hpp"

namespace icheck::check {
namespace {

constexpr std::chrono::milliseconds k_completion_deadline{5000};  // a shell is waiting

std::vector<std::string> what_to_get(const KubeSession& s, NameKind kind,
                                     const std::string& deployment) {
  switch (kind) {
  case NameKind::namespaces:
    return {"get", "namespaces", "-o", "name"};
  case NameKind::contexts:
    return {"config", "get-contexts", "-o", "name"};
  case NameKind::deployments:
    return {"get", "dynamographdeployments.nvidia.com", "-o", "name", "-n", s.resolved.namespace_};
  case NameKind::worker_pods:
    break;
  }
  const std::string selector =
      deployment.empty() ? kube::default_selector()
                         : kube::default_selector() + "," + kube::deployment_selector(deployment);
  return {"get", "pods", "-o", "json", "-n", s.resolved.namespace_, "-l", selector};
}

// `kubectl get -o name` prints "pod/NAME", "namespace/NAME": the part after the last '/'.
std::vector<std::string> names_of(const std::string& out) {
  std::vector<std::string> names;
  for (const auto line : text::lines(out)) {
    const auto name = text::trim(line.substr(line.rfind('/') + 1));
    if (!name.empty()) {
      names.emplace_back(name);
    }
  }
  return names;
}

// Worker pods only, as the checks choose them (prefill, decode, worker).
std::vector<std::string> worker_names(const std::string& json) {
  std::vector<std::string> names;
  if (const auto pods = kube::parse_pods_json(json, {})) {
    for (const auto& pod : kube::select_targets(*pods, false)) {
      names.push_back(pod.name);
    }
  }
  return names;
}

}  // namespace

std::vector<std::string> cluster_names(const kube::KubeFlags& flags, NameKind kind,
                                       const std::string& deployment) {
  const auto session = open_session(flags, k_completion_deadline);
  if (!session) {
    return {};
  }
  exec::ChildSpec spec;
  spec.argv = session->base;
  const auto args = what_to_get(*session, kind, deployment);
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.deadline = k_completion_deadline;
  const auto r = exec::run_child(spec);
  if (!r.ok()) {
    return {};
  }
  return kind == NameKind::worker_pods ? worker_names(r.out) : names_of(r.out);
}

}  // namespace icheck::check
