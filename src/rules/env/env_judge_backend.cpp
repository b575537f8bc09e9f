#include "dynamo/engine_flags.hpp"
#include "dynamo/transport_vars.hpp"
#include "rules/env/env_detail.hpp"
#include "rules/nixl/nixl_backend.hpp"
#include "util/join.hpp"

using icheck::report::Status;

namespace icheck::rules::detail {

report::Finding judge_backend(const recipe::Service& s) {
  const auto b = service_kv_backends(s);
  const std::string what = kv_transfer_text(b, "the recipe");
  if (s.rdma_resources.contains("vpc.amazonaws.com/efa") && b.over_ucx()) {
    return env_finding(
        s, "kv transfer", Status::warn,
        what + " on EFA (vpc.amazonaws.com/efa): UCX on EFA has no GPUDirect on kernels >= 6.8",
        "choose NIXL's LIBFABRIC backend for the KV transfer: " +
            dynamo::setting(dynamo::kTrtllmNixlBackendVar, "LIBFABRIC") +
            " with cache_transceiver_config.backend NIXL or DEFAULT (TRT-LLM), " +
            dynamo::setting(dynamo::kSglangNixlBackendVar, "LIBFABRIC") + " (SGLang), " +
            std::string(dynamo::kVllmKvTransferConfigFlag) +
            " "
            "'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_"
            "config\":"
            "{\"backends\":[\"LIBFABRIC\"]}}' (vLLM)");
  }
  if (!b.not_understood().empty())
    return env_finding(s, "kv transfer", Status::warn, not_understood_text(b, what));
  auto f = env_finding(s, "kv transfer", Status::ok, what);
  f.required = false;
  return f;
}

std::optional<report::Finding> judge_backends_meet(const recipe::Service& prefill,
                                                   const recipe::Service& decode) {
  const auto p = service_kv_backends(prefill);
  const auto d = service_kv_backends(decode);
  const std::string name = "kv transfer meets " + prefill.name;
  if (p.library != d.library) {
    return env_finding(decode, name, Status::fail,
                       prefill.name + " moves KV with " + kv_path_text(p) + ", " + decode.name + " with " +
                           kv_path_text(d) + ": the two sides cannot connect",
                       "choose the same KV transfer on both services");
  }
  if (!p.via_nixl()) {
    return std::nullopt;
  }
  for (const auto& backend : p.names) {
    if (d.uses(backend)) {
      return std::nullopt;
    }
  }
  return env_finding(decode, name, Status::fail,
                     prefill.name + " uses " + p.joined() + ", " + decode.name + " uses " + d.joined() +
                         ": NIXL has no backend in common, KV cannot move between them",
                     "set the same backend on both services");
}

}  // namespace icheck::rules::detail
