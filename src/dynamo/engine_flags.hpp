#pragma once
// How each framework Dynamo runs spells, on its command line and in its environment, the
// worker's role and the library and backend that move its KV cache. Each spelling is written
// here once; readers in recipe/, kube/, probe/ and rules/ take them from here.

#include "dynamo/role.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::dynamo {

// The modules that start a Dynamo backend: `python3 -m dynamo.vllm ...`.
inline constexpr std::string_view kBackendModulePrefix = "dynamo.";

// Role flags: `--disaggregation-mode prefill|decode` (any case, also `=`), and vLLM's older
// `--is-prefill-worker` / `--is-decode-worker`.
inline constexpr std::string_view kDisaggregationModeFlag = "--disaggregation-mode";
inline constexpr std::string_view kIsPrefillWorkerFlag = "--is-prefill-worker";
inline constexpr std::string_view kIsDecodeWorkerFlag = "--is-decode-worker";

// KV library and backend choices per framework.
inline constexpr std::string_view kVllmKvTransferConfigFlag = "--kv-transfer-config"; // vLLM
inline constexpr std::string_view kSglangTransferBackendFlag =
    "--disaggregation-transfer-backend";                                         // SGLang
inline constexpr std::string_view kTrtllmEngineArgsFlag = "--extra-engine-args"; // TRT-LLM
inline constexpr std::string_view kSglangNixlBackendVar = "SGLANG_DISAGGREGATION_NIXL_BACKEND";
inline constexpr std::string_view kTrtllmNixlBackendVar = "TRTLLM_NIXL_KVCACHE_BACKEND";
inline constexpr std::string_view kKvTransferConfigVar = "KV_TRANSFER_CONFIG";
inline constexpr std::string_view kKvbmBackendPrefix = "DYN_KVBM_NIXL_BACKEND_"; // <NAME>=true

// The role a command line's words set with a role flag; nullopt when none does.
std::optional<Role> role_from_flags(const std::vector<std::string>& words);

// A word starts a Dynamo backend (dynamo.vllm, dynamo.sglang, dynamo.trtllm, ...).
bool launches_backend(const std::vector<std::string>& words);

} // namespace icheck::dynamo
