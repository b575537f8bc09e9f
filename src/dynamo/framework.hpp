#pragma once
// Which inference framework a worker runs, and which variables that look like a NIXL backend
// choice that framework does not read. Each framework selects its backend its own way (Dynamo's
// EFA guide): vLLM only from --kv-transfer-config's kv_connector_extra_config.backends (vLLM
// logs "Unknown vLLM environment variable detected: VLLM_NIXL_KVCACHE_BACKEND" and keeps UCX:
// aws-samples/awsome-inference #72, vllm-project/vllm #41814), SGLang from
// SGLANG_DISAGGREGATION_NIXL_BACKEND, TRT-LLM from TRTLLM_NIXL_KVCACHE_BACKEND. Pure.

#include <optional>
#include <string>
#include <string_view>

namespace icheck::dynamo {

enum class Framework { vllm, sglang, trtllm, unknown };

// Names that look like a NIXL backend choice but that no framework reads for it (vLLM's
// docs: "NIXL_BACKEND / VLLM_NIXL_BACKEND are not vLLM transport override knobs", vllm #50832).
inline constexpr std::string_view kNixlBackendVar = "NIXL_BACKEND";
inline constexpr std::string_view kVllmNixlKvcacheBackendVar = "VLLM_NIXL_KVCACHE_BACKEND";
inline constexpr std::string_view kVllmNixlBackendVar = "VLLM_NIXL_BACKEND";

// From a container's command line (one string): Dynamo's backend modules (`-m dynamo.vllm`,
// dynamo.sglang, dynamo.trtllm), else the frameworks' own servers (`vllm serve`,
// sglang.launch_server, trtllm-serve); unknown when none, or more than one, is named.
Framework framework_of(std::string_view command_line);
std::string_view framework_name(Framework f);

// Which program the command line starts: "dynamo" (Dynamo's backend modules, which configure the
// KV connector themselves when no --kv-transfer-config is given: components/src/dynamo/vllm/
// args.py create_kv_transfer_config), "vllm-serve" (`vllm serve`, vllm.entrypoints),
// "sglang-server" (sglang.launch_server, `sglang serve`), "trtllm-serve"; "" when none or more
// than one is named.
std::string entrypoint_of(std::string_view command_line);  // "vLLM", "SGLang", "TRT-LLM", "unknown"

// Where the framework really takes its NIXL backend from, when `name` is a variable that looks
// like that choice and the framework does not read it; nullopt when it reads it, when the name
// is no backend choice, or when the framework is unknown (nothing is concluded then).
std::optional<std::string> ignored_backend_var(Framework f, std::string_view name);

}  // namespace icheck::dynamo
