#pragma once
// Somewhere to go when a run finds no worker pod: where Dynamo worker pods do run (the namespaces
// and their DynamoGraphDeployments), as next steps: "try -n dynamo, or -A"; for a --deployment
// that has none, the deployments that do.

#include "check/kube_session.hpp"
#include "kube/pods.hpp"

#include <string>
#include <vector>

namespace icheck::check {

// Pure: `workers` are the worker pods of every namespace the user can list; `ns` the namespace
// looked in ("" with -A), `deployment` the --deployment given ("" none).
std::vector<std::string> where_workers_are(const std::vector<kube::PodInfo>& workers,
                                           const std::string& ns, const std::string& deployment);

// One more read (the Dynamo pods of every namespace) and where_workers_are; nothing when that
// list fails (RBAC may allow one namespace only): a hint, never an error of its own.
std::vector<std::string> look_elsewhere(const KubeSession& session, const TargetOptions& targets);

}  // namespace icheck::check
