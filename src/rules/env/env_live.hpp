#pragma once
// env --live: a recipe service's transport env against what one running pod really has.
// Pure: the pod env comes in already read (transport variables only) and masked.

#include "recipe/model.hpp"
#include "rules/nixl/nixl_backend.hpp"
#include "report/model.hpp"

#include <map>
#include <string>
#include <vector>

namespace icheck::rules {

// Per transport variable the node probe reads (dynamo/transport_vars.hpp; a variable it never
// reads is never compared), named "<service> <VAR>", layer env: same value -> ok; differs ->
// warn (operator or image changed it); only in the pod -> ok, required=false (injected by
// operator or image); only in the recipe -> warn. A recipe valueFrom reference cannot be
// compared: ok with the pod's value. A variable the env rules judge (UCX_TLS, UCX_NET_DEVICES,
// NCCL_IB_DISABLE) goes through the same rule with the pod's value, whether it came from the
// recipe, the operator or the image, and the finding says which (a changed value at least warns).
std::vector<report::Finding> compare_live(const recipe::Deployment& dgd, const recipe::Service& service,
                                          const std::map<std::string, std::string>& pod_env);

// `all`: the KV path the recipe gives the service against the one the pod really runs, named
// "<service> kv transfer (live)", layer env: the same -> ok, optional; different -> warn (the
// image, the operator or a changed ConfigMap moved it).
report::Finding compare_kv_live(const recipe::Service& service, const KvBackends& pod);

}  // namespace icheck::rules
