#include "rules/env/env_detail.hpp"
#include "util/join.hpp"

using icheck::report::Status;

namespace icheck::rules::detail {

static std::string rdma_list(const recipe::Service& s) {
  std::vector<std::string> items;
  for (const auto& [name, quantity] : s.rdma_resources) {
    items.push_back(name + "=" + quantity);
  }
  return join(items);
}

report::Finding judge_rdma_resource(const recipe::Service& s, const EnvContext& ctx) {
  if (!s.rdma_resources.empty()) {
    return env_finding(s, "rdma-resource", Status::ok, rdma_list(s));
  }
  const std::string count = std::to_string(s.gpus > 0 ? s.gpus : 1);
  const std::string next =
      ctx.v1alpha1 ? "services." + s.name + ".resources.limits.custom: {rdma/ib: \"" + count + "\"}"
                   : "components[" + s.name + "] main container resources.limits: {rdma/ib: \"" +
                         count + "\"}";
  if (!ctx.cross_node) {
    // Same node is not NVLink: prefill and decode are separate pods (Dynamo's disagg
    // communication guide: "NVLink cannot be used between Kubernetes pods"); CUDA IPC between
    // them needs the node's IPC and PID namespaces shared.
    if (s.host_ipc && s.host_pid) {
      return env_finding(s, "rdma-resource", Status::warn,
                         "none requested; hostIPC and hostPID share the node's namespaces, so UCX "
                         "cuda_ipc may carry KV between prefill and decode pods on one node (not "
                         "verified from the recipe); without it KV goes over TCP",
                         next);
    }
    return env_finding(s, "rdma-resource", Status::fail,
                       "none requested: prefill and decode run in separate pods, which cannot use "
                       "NVLink/CUDA IPC between them even on one node (separate IPC and PID "
                       "namespaces; no hostIPC/hostPID), so KV between them goes over TCP",
                       next);
  }
  if (ctx.mnnvl) {
    return env_finding(s, "rdma-resource", Status::ok,
                       "none requested; KV moves over multi-node NVLink (MNNVL intended)");
  }
  return env_finding(
      s, "rdma-resource", Status::warn,
      "no rdma/*, vpc.amazonaws.com/efa or networking.gke.io.networks/* resource on a "
      "cross-node worker: KV may go over TCP unless NICs come another way (hostNetwork)",
      next);
}

report::Finding judge_memlock(const recipe::Service& s, const EnvContext& ctx) {
  if (s.privileged) {
    return env_finding(s, "memlock", Status::ok, "privileged: RDMA memory can be pinned");
  }
  if (s.ipc_lock) {
    return env_finding(s, "memlock", Status::ok, "IPC_LOCK capability: RDMA memory can be pinned");
  }
  return env_finding(
      s, "memlock", Status::warn,
      "no IPC_LOCK capability, not privileged: RDMA registration may fail (unless the node's "
      "memlock limit is unlimited)",
      // From the service down, as the rdma-resource step says it: the path is pasteable.
      ctx.v1alpha1 ? "services." + s.name +
                         ".extraPodSpec.mainContainer.securityContext.capabilities.add: [IPC_LOCK]"
                   : "components[" + s.name +
                         "] main container securityContext.capabilities.add: [IPC_LOCK]");
}

}  // namespace icheck::rules::detail
