#pragma once
// The multi-node NVLink domain a pod's GPUs joined (internal to src/rules): node mode judges it
// per pod, and `all` compares it between prefill and decode.

#include "probe/facts.hpp"

#include <optional>
#include <string>

namespace icheck::rules {

// "cluster 6a130f54-… clique 32766" when every GPU with a fabric state registered in one
// ClusterUUID and CliqueId; "" when they differ or none registered.
std::string fabric_domain(const probe::FabricInfo& info);

} // namespace icheck::rules

namespace icheck::rules::node {

// Why this pod is meant to use multi-node NVLink ("UCX_CUDA_IPC_ENABLE_MNNVL=y", ...); nullopt
// when nothing says so.
std::optional<std::string> mnnvl_intent(const probe::NodeFacts& facts);

} // namespace icheck::rules::node
