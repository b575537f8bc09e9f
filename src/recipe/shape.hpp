#pragma once
// The deployment's shape, which decides which transport rules apply.

#include "recipe/model.hpp"

namespace icheck::recipe {

// GPUs of one node in the machines the recipes target (HGX/DGX: 8). Worker pods asking for
// more GPUs in total than this cannot all share one node.
inline constexpr int gpus_per_node = 8;

// Prefill, decode and aggregated workers; not frontend, epp or planner.
bool is_worker(const Service& service);

// Has at least one prefill and one decode worker: KV moves between pods over NIXL.
bool is_disagg(const Deployment& dgd);

// Every service's role is known (dynamo::read_role): only then can "not disaggregated" mean
// aggregated.
bool roles_known(const Deployment& dgd);

// Not disaggregated and every role known: KV never moves between pods.
bool is_aggregated(const Deployment& dgd);

// Worker pods may sit on different nodes, so KV (or a worker's own traffic) leaves the node:
// a worker spans nodes (multinode.nodeCount > 1), a worker has several replicas with GPUs,
// or the worker pods together ask for more GPUs than one node has.
bool is_cross_node(const Deployment& dgd);

// KV can move over multi-node NVLink (GB200/GB300 NVL72) only through an IMEX channel: a worker
// whose main container holds the pod's DRA claim of a ComputeDomain's channel template
// (Service::imex_channel). NCCL_MNNVL_ENABLE, UCX_CUDA_IPC_ENABLE_MNNVL, a ComputeDomain no
// worker claims, or a claim name the pod does not define do not make it so (the GPUs of two
// nodes cannot share memory without the channel).
bool mnnvl_intended(const Deployment& dgd);

}  // namespace icheck::recipe
