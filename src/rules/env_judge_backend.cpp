#include "rules/env_detail.hpp"
#include "rules/nixl_backend.hpp"
#include "util/join.hpp"

using icheck::report::Status;

namespace icheck::rules::detail {

KvBackends service_backends(const recipe::Service& s) {
  std::map<std::string, std::string> env;
  for (const auto& var : s.env) {
    if (!var.is_reference) {
      env[var.name] = var.value;
    }
  }
  return kv_backends(env, s.args);
}

report::Finding judge_backend(const recipe::Service& s) {
  const auto b = service_backends(s);
  std::string what = b.joined() + (b.is_default() ? " (not set in the recipe: the framework's default)"
                                                   : " (from " + b.source + ")");
  if (!b.kvbm.empty()) {
    what += "; KVBM: " + join(b.kvbm);
  }
  if (s.rdma_resources.contains("vpc.amazonaws.com/efa") && b.uses("UCX")) {
    return env_finding(s, "nixl backend", Status::warn,
                       what + " on EFA (vpc.amazonaws.com/efa): UCX on EFA has no GPUDirect on kernels >= 6.8",
                       "choose LIBFABRIC for the KV transfer: TRTLLM_NIXL_KVCACHE_BACKEND=LIBFABRIC (TRT-LLM), "
                       "SGLANG_DISAGGREGATION_NIXL_BACKEND=LIBFABRIC (SGLang), --kv-transfer-config "
                       "'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
                       "{\"backends\":[\"LIBFABRIC\"]}}' (vLLM)");
  }
  auto f = env_finding(s, "nixl backend", Status::ok, what);
  f.required = false;
  return f;
}

std::optional<report::Finding> judge_backends_meet(const recipe::Service& prefill,
                                                   const recipe::Service& decode) {
  const auto p = service_backends(prefill);
  const auto d = service_backends(decode);
  for (const auto& name : p.names) {
    if (d.uses(name)) {
      return std::nullopt;
    }
  }
  return env_finding(decode, "nixl backend meets " + prefill.name, Status::fail,
                     prefill.name + " uses " + p.joined() + ", " + decode.name + " uses " + d.joined() +
                         ": NIXL has no backend in common, KV cannot move between them",
                     "set the same backend on both services");
}

}  // namespace icheck::rules::detail
