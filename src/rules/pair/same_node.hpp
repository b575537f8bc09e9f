#pragma once
// node, nixl and all: a prefill and a decode pod on one node are still two pods, with separate
// processes and IPC/PID namespaces, so NVLink/CUDA IPC does not join them (Dynamo's disagg
// communication guide: "NVLink cannot be used between Kubernetes pods"). KV between them moves
// through an RDMA device both pods hold (the NIC's loopback), else over TCP.

#include "dynamo/role.hpp"
#include "probe/facts.hpp"
#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::rules {

struct SameNodePod {
  std::string name;
  dynamo::Role role = dynamo::Role::unknown;
  std::string node;                         // the Kubernetes node; "" when unscheduled
  bool host_ipc = false;                    // the pod spec's hostIPC
  bool host_pid = false;                    // the pod spec's hostPID
  const probe::NodeFacts* facts = nullptr;  // the pod's probed facts
};

// out[i] belongs to pods[i]: one "same node" finding on a prefill or decode pod that shares its
// node with a pod of the other half, unless every such pair can move KV over RDMA (an uverbs
// node and an Active port in both pods) or both pods hold an IMEX channel of one NVLink domain.
// Without RDMA: fail (KV goes over TCP); with hostIPC and hostPID on both: warn (CUDA IPC may
// work, not verified); EFA only: warn (no loopback); the pod's devices unknown: skipped.
std::vector<std::vector<report::Finding>> same_node_findings(const std::vector<SameNodePod>& pods);

}  // namespace icheck::rules
