#pragma once
// How each framework Dynamo runs spells, on its command line and in its environment, the
// worker's role and the library and backend that move its KV cache. Each spelling is written
// here once; readers in recipe/, kube/, probe/ and rules/ take them from here.

#include "dynamo/role.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::dynamo {

// The modules that start a Dynamo backend: `python3 -m dynamo.vllm ...`.
inline constexpr std::string_view kBackendModulePrefix = "dynamo.";

// Role flags, each framework's spelling (dynamo-nixl.md §1.4; Dynamo's vLLM and TRT-LLM argument
// groups, SGLang's ServerArgs, trtllm-serve):
//   --disaggregation-mode prefill|decode   Dynamo vLLM, TRT-LLM and SGLang (any case, also `=`)
//   --is-prefill-worker, --is-decode-worker   Dynamo vLLM before --disaggregation-mode
//   --server_role CONTEXT|GENERATION       trtllm-serve (TRT-LLM's own disaggregated server)
// and the variables Dynamo reads when the flag is absent: DYN_VLLM_DISAGGREGATION_MODE,
// DYN_TRTLLM_DISAGGREGATION_MODE, DYN_VLLM_IS_PREFILL_WORKER, DYN_VLLM_IS_DECODE_WORKER.
enum class RoleFlagKind { value, prefill, decode };
struct RoleFlag {
  std::string_view name;
  RoleFlagKind kind;
};
const std::vector<RoleFlag>& role_flags();
const std::vector<RoleFlag>& role_env_vars();

// A role flag's value: prefill|context -> prefill, decode|generation -> decode (any case).
std::optional<Role> role_from_value(std::string_view value);

// KV library and backend choices per framework.
inline constexpr std::string_view kVllmKvTransferConfigFlag = "--kv-transfer-config"; // vLLM
inline constexpr std::string_view kSglangTransferBackendFlag =
    "--disaggregation-transfer-backend";                                         // SGLang
inline constexpr std::string_view kTrtllmEngineArgsFlag = "--extra-engine-args"; // TRT-LLM
inline constexpr std::string_view kSglangConfigFlag = "--config";  // SGLang: server args as YAML
inline constexpr std::string_view kSglangIbDeviceFlag =
    "--disaggregation-ib-device";  // Mooncake's HCAs
inline constexpr std::string_view kSglangNixlBackendVar = "SGLANG_DISAGGREGATION_NIXL_BACKEND";
inline constexpr std::string_view kTrtllmNixlBackendVar = "TRTLLM_NIXL_KVCACHE_BACKEND";
inline constexpr std::string_view kKvTransferConfigVar = "KV_TRANSFER_CONFIG";
inline constexpr std::string_view kKvbmBackendPrefix = "DYN_KVBM_NIXL_BACKEND_"; // <NAME>=true

// A role flag met on a command line: the role it sets (worker for the aggregated values:
// Dynamo's `agg`, SGLang's `null`, TRT-LLM's `prefill_and_decode`; nullopt for a value
// outside the vocabulary) and how it was written ("--disaggregation-mode 'encode'").
struct RoleFlagReading {
  std::optional<Role> role;
  std::string spelled;
};

// The first role flag among a command line's words; nullopt when there is none.
std::optional<RoleFlagReading> role_flag_reading(const std::vector<std::string>& words);

// The role the container's env sets in place of the flag; nullopt when none does.
std::optional<Role> role_from_env(const std::map<std::string, std::string>& env);

// A word starts a Dynamo backend (dynamo.vllm, dynamo.sglang, dynamo.trtllm, ...).
bool launches_backend(const std::vector<std::string>& words);

} // namespace icheck::dynamo
