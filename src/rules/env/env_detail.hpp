#pragma once
// Pieces of the env rules (internal to rules/).

#include "recipe/model.hpp"
#include "report/model.hpp"

#include <optional>
#include <string>

namespace icheck::rules::detail {

struct EnvContext {
  bool disagg = false;
  bool cross_node = false;
  bool mnnvl = false;
  bool v1alpha1 = false;  // decides how a `next` YAML change is spelled
};

// The deployment's shape as the env rules need it.
EnvContext env_context(const recipe::Deployment& dgd);

// A worker's variables that are judged, not only listed: UCX_TLS and UCX_NET_DEVICES on disagg
// workers, NCCL_IB_DISABLE on every worker. nullopt when the service sets none of them or
// the rule has nothing to say.
std::optional<report::Finding> judge_var(const std::string& name, const recipe::Service& s,
                                         const EnvContext& ctx);

// Named "<who> <check>": who is a service, or the deployment for deployment-wide findings.
report::Finding env_finding(const std::string& who, const std::string& check, report::Status status,
                            std::string detail, std::string next = "");
inline report::Finding env_finding(const recipe::Service& service, const std::string& check,
                                   report::Status status, std::string detail, std::string next = "") {
  return env_finding(service.name, check, status, std::move(detail), std::move(next));
}


std::optional<report::Finding> judge_ucx_tls(const recipe::Service&, const EnvContext&);
// A worker of a single-node (not disaggregated) recipe: only the cuda_copy gap, nullopt otherwise.
std::optional<report::Finding> judge_ucx_tls_single_node(const recipe::Service&);
std::optional<report::Finding> judge_net_devices(const recipe::Service&);
std::optional<report::Finding> judge_nccl_ib(const recipe::Service&);
report::Finding judge_rdma_resource(const recipe::Service&, const EnvContext&);
report::Finding judge_memlock(const recipe::Service&, const EnvContext&);
// The NIXL backend a worker's KV transfer uses (nixl_backend.hpp); warns for UCX on EFA.
report::Finding judge_backend(const recipe::Service&);
// A role read past a value outside the vocabulary, or not read at all: a required warn.
std::optional<report::Finding> judge_role(const recipe::Service&);
// A deployment that is not disaggregated: aggregated (ok) when every service's role is known,
// else a required warn naming the services whose role is unknown and what was seen.
report::Finding judge_split(const recipe::Deployment&);
// A prefill and a decode service that share no backend: fail on the decode side.
std::optional<report::Finding> judge_backends_meet(const recipe::Service& prefill,
                                                   const recipe::Service& decode);

}  // namespace icheck::rules::detail
