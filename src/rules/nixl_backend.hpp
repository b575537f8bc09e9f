#pragma once
// Which NIXL backend(s) a worker's KV transfer uses, from what the frameworks read
// (dynamo-nixl.md "Framework side"): TRT-LLM's TRTLLM_NIXL_KVCACHE_BACKEND, SGLang's
// SGLANG_DISAGGREGATION_NIXL_BACKEND, vLLM's --kv-transfer-config
// {"kv_connector_extra_config":{"backends":[...]}} (in the container's command line, or in a
// variable it references), and Dynamo KVBM's DYN_KVBM_NIXL_BACKEND_<NAME>=true. None set: UCX,
// the default of all of them. Pure.

#include <map>
#include <string>
#include <vector>

namespace icheck::rules {

struct KvBackends {
  std::vector<std::string> names{"UCX"};  // NIXL backend names, upper case, first-seen order
  std::string source = "default";         // where they were read: "TRTLLM_NIXL_KVCACHE_BACKEND", ...
  bool is_default() const { return source == "default"; }
  bool uses(const std::string& name) const;
  std::string joined() const;  // "UCX" | "LIBFABRIC, UCX"
};

// env: the container's backend variables (probe::NixlFacts::backend_env); command_line: the
// container's command + args from the pod spec, `$(VAR)` references expanded from env.
KvBackends kv_backends(const std::map<std::string, std::string>& env,
                       const std::vector<std::string>& command_line);

}  // namespace icheck::rules
