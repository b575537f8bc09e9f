#pragma once
// Names from the cluster for shell completion: namespaces, contexts, DynamoGraphDeployments,
// worker pods. Each is one short kubectl call with the user's own flags; any failure gives no
// names (completion never prints an error in the middle of a command line).

#include "kube/flags.hpp"

#include <string>
#include <vector>

namespace icheck::check {

enum class NameKind { namespaces, contexts, deployments, worker_pods };

// `deployment` narrows worker_pods to one DynamoGraphDeployment when the line already names it.
std::vector<std::string> cluster_names(const kube::KubeFlags& flags, NameKind kind,
                                       const std::string& deployment = "");

}  // namespace icheck::check
