#pragma once
// The cluster side of a run: kubeconfig resolved like kubectl, the argv prefix every kubectl
// child gets, and the one `kubectl get pods` per selection that finds the targets.

#include "check/options.hpp"
#include "kube/environment.hpp"
#include "kube/kubeconfig.hpp"
#include "kube/pods.hpp"
#include "util/expected.hpp"

#include <string>
#include <vector>

namespace icheck::check {

struct KubeSession {
  kube::ResolvedKube resolved;
  std::string program;            // the kubectl binary
  std::vector<std::string> base;  // program + the user's global flags + resolved context
  std::chrono::milliseconds timeout{30000};
};

Expected<KubeSession> open_session(const kube::KubeFlags& flags, std::chrono::milliseconds timeout);

struct PodSelection {
  std::vector<kube::PodInfo> pods;      // every pod the selection matched
  std::vector<std::string> warnings;    // e.g. a --pod that does not exist
  std::string described;                // "deployment x", "selector a=b", "pods a, b"
};

// `deployments` are the DGD names a --recipe folder defines (resolved by the caller).
Expected<PodSelection> find_pods(const KubeSession& session, const TargetOptions& targets,
                                 const std::vector<std::string>& deployments);

}  // namespace icheck::check
