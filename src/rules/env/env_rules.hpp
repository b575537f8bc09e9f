#pragma once
// env layer: judging a DynamoGraphDeployment's transport settings as written in the recipe.
// Pure: the deployment in, findings out. Values in the recipe are not the effective values
// (the image and the operator add their own), so an absent variable is never a failure.

#include "recipe/model.hpp"
#include "report/model.hpp"

#include <vector>

namespace icheck::rules {

// Per service, names "<service> <check>" (e.g. "decode UCX_TLS", "prefill memlock"):
// - every transport variable (dynamo::is_transport_var) listed with its shown value, ok,
//   required=false;
// - for disagg deployments, per worker: UCX_TLS (RDMA and active-message transports),
//   UCX_NET_DEVICES (bond / all), rdma-resource (cross-node), memlock (IPC_LOCK/privileged),
//   kv transfer (NIXL and its backend, or the framework's own path; UCX on EFA warns);
//   "<decode> kv transfer meets <prefill>" fails when the two move KV differently or share no
//   NIXL backend;
// - NCCL_IB_DISABLE=1 on a worker that spans nodes;
// - for an aggregated deployment a single "<dgd> transport" finding saying KV is not moved.
std::vector<report::Finding> env_findings(const recipe::Deployment& dgd);

}  // namespace icheck::rules
