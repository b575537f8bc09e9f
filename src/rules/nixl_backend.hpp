#pragma once
// Which NIXL backend(s) a worker's disaggregated KV transfer uses, from the framework's own
// setting (Dynamo's EFA guide: "Each framework selects the backend differently"): SGLang's
// SGLANG_DISAGGREGATION_NIXL_BACKEND, vLLM's --kv-transfer-config
// {"kv_connector_extra_config":{"backends":[...]}} (in the container's command line, or in a
// variable it references), TRT-LLM's TRTLLM_NIXL_KVCACHE_BACKEND; UCX, the default of all of
// them, when none is set. Dynamo KVBM's DYN_KVBM_NIXL_BACKEND_<NAME>=true selects KVBM's own
// backends (offload tiers), not the prefill->decode transfer: kept apart. Pure.

#include <map>
#include <string>
#include <vector>

namespace icheck::rules {

struct KvBackends {
  std::vector<std::string> names{"UCX"};  // the KV transfer's backends, upper case, first-seen order
  std::string source = "default";         // where they were read: "TRTLLM_NIXL_KVCACHE_BACKEND", ...
  std::vector<std::string> kvbm;          // KVBM's backends (DYN_KVBM_NIXL_BACKEND_<NAME>=true)
  bool is_default() const { return source == "default"; }
  bool uses(const std::string& name) const;  // the KV transfer uses it
  std::string joined() const;                // "UCX" | "LIBFABRIC, UCX"
  // Every plugin NIXL needs in this pod: the transfer's, then KVBM's not already listed.
  std::vector<std::string> plugins_needed() const;
};

// env: the container's backend variables (probe::NixlFacts::backend_env); command_line: the
// container's command + args from the pod spec, `$(VAR)` references expanded from env.
KvBackends kv_backends(const std::map<std::string, std::string>& env,
                       const std::vector<std::string>& command_line);

}  // namespace icheck::rules
