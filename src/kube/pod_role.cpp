#include "kube/pods.hpp"
#include "util/join.hpp"

#include <algorithm>

namespace icheck::kube {
namespace {

std::string label(const std::map<std::string, std::string>& labels, const char* key) {
  auto found = labels.find(key);
  return found == labels.end() ? std::string() : found->second;
}

} // namespace

dynamo::RoleReading pod_role_reading(const std::map<std::string, std::string>& labels,
                                     const std::vector<std::string>& command_line,
                                     const std::map<std::string, std::string>& env) {
  return dynamo::read_role({label(labels, kComponentTypeLabel),
                            label(labels, kSubComponentTypeLabel), label(labels, kComponentLabel),
                            command_line, env});
}

dynamo::Role pod_role(const std::map<std::string, std::string>& labels,
                      const std::vector<std::string>& command_line,
                      const std::map<std::string, std::string>& env) {
  return pod_role_reading(labels, command_line, env).role;
}

const PodInfo* multinode_leader(const std::vector<PodInfo>& pods, const PodInfo& pod) {
  if (pod.multinode != dynamo::MultinodePart::worker || pod.multinode_group.empty())
    return nullptr;
  auto leader = std::find_if(pods.begin(), pods.end(), [&](const PodInfo& p) {
    return p.multinode == dynamo::MultinodePart::leader &&
           p.multinode_group == pod.multinode_group && p.namespace_ == pod.namespace_;
  });
  return leader == pods.end() ? nullptr : &*leader;
}

std::vector<PodInfo> select_targets(const std::vector<PodInfo>& pods, bool all_components) {
  std::vector<PodInfo> targets;
  std::copy_if(pods.begin(), pods.end(), std::back_inserter(targets), [&](const PodInfo& pod) {
    return all_components || dynamo::is_worker(pod.role) ||
           (pod.role == dynamo::Role::unknown && !pod.role_not_understood.empty());
  });
  return targets;
}

std::string default_selector() {
  return kDeploymentLabel;
}

std::string deployment_selector(const std::string& dgd) {
  return std::string(kDeploymentLabel) + "=" + dgd;
}

std::string deployments_selector(const std::vector<std::string>& dgds) {
  if (dgds.size() == 1)
    return deployment_selector(dgds.front());
  return std::string(kDeploymentLabel) + " in (" + join(dgds, ",") + ")";
}

} // namespace icheck::kube
