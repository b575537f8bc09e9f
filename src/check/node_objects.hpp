#pragma once
// The target pods' node objects, read once per run where the user may read them: one
// `kubectl get nodes NAME... -o json` child (the same API access the pod list uses, one GET per
// distinct node, at most kMaxNodes, bounded in time and bytes). A node not readable (403 on the
// cluster-scoped nodes resource, 404, a cut or failed read) is simply absent: unknown, never an
// error of the run.

#include "check/kube_session.hpp"
#include "kube/node_object.hpp"
#include "kube/pods.hpp"

#include <map>
#include <string>
#include <vector>

namespace icheck::check {

inline constexpr std::size_t kMaxNodes = 64;

// The distinct node names of the pods that a kubectl argument can carry (DNS subdomain names),
// in first-seen order, at most kMaxNodes. Pure.
std::vector<std::string> node_names(const std::vector<kube::PodInfo>& pods);

std::map<std::string, kube::NodeObject> read_node_objects(const KubeSession& session,
                                                          const std::vector<kube::PodInfo>& pods);

}  // namespace icheck::check
