#pragma once
// The environment variables that steer the KV transport, as one table: which ones `env`
// lists and compares, which ones the node probe reads from a running container, and which
// ones choose the NIXL backend (read by the nixl probe). The probes' shell filters are
// generated from this table, so what the C++ side expects is what the script prints.

#include <string>
#include <string_view>
#include <vector>

namespace icheck::dynamo {

enum class VarMatch { exact, prefix };

struct TransportVar {
  std::string_view name; // the exact name, or the prefix ("UCX_")
  VarMatch match;
  // A prefix entry that counts only names containing one of these ("" = every name):
  // most TRTLLM_* tune the engine (GC, PDL, MoE); only these move the KV cache.
  std::vector<std::string_view> containing;
  bool listed;          // env lists it per service and compares recipe with pod
  bool node_probe;      // the node probe reads it from the container (transport_env)
  bool chooses_backend; // the nixl probe reads it (nixl_env): it picks a NIXL backend
};

const std::vector<TransportVar>& transport_vars();

// The variables read or named one by one (rules, probes, advice): each is spelled here once
// and falls under a prefix of the table; named_transport_vars() lists them with
// engine_flags.hpp's backend variables.
inline constexpr std::string_view kUcxTlsVar = "UCX_TLS";
inline constexpr std::string_view kUcxNetDevicesVar = "UCX_NET_DEVICES";
inline constexpr std::string_view kUcxIbAddrTypeVar = "UCX_IB_ADDR_TYPE";
inline constexpr std::string_view kUcxCudaIpcMnnvlVar = "UCX_CUDA_IPC_ENABLE_MNNVL";
inline constexpr std::string_view kUcxProtoInfoVar = "UCX_PROTO_INFO";
inline constexpr std::string_view kNcclIbDisableVar = "NCCL_IB_DISABLE";
inline constexpr std::string_view kNcclIbHcaVar = "NCCL_IB_HCA";
inline constexpr std::string_view kNcclMnnvlEnableVar = "NCCL_MNNVL_ENABLE";
inline constexpr std::string_view kNixlPluginDirVar = "NIXL_PLUGIN_DIR";
// The RoCE GID index each library uses (node rules judge them against the GID tables).
inline constexpr std::string_view kUcxIbGidIndexVar = "UCX_IB_GID_INDEX";
inline constexpr std::string_view kNcclIbGidIndexVar = "NCCL_IB_GID_INDEX";
// The Mooncake transfer engine's (kvcache-ai/Mooncake): its RoCE GID index, the HCAs its
// auto-discovery may use (comma list), and TCP forced in place of RDMA.
inline constexpr std::string_view kMooncakeGidIndexVar = "MC_GID_INDEX";
inline constexpr std::string_view kMooncakeDeviceFilterVar = "MC_MS_FILTERS";
inline constexpr std::string_view kMooncakeForceTcpVar = "MC_FORCE_TCP";

// Every name above and engine_flags.hpp's backend variables, each once.
const std::vector<std::string_view>& named_transport_vars();

// "NAME=value": how findings show a setting.
std::string setting(std::string_view name, std::string_view value);

// `env` lists and compares it: NIXL_*, UCX_*, NCCL_*, GLOO_*, VLLM_NIXL_*, TRTLLM_* that name
// the KV-cache transfer (TRTLLM_*NIXL*, *UCX*, *KVCACHE*, *MNNVL*).
bool is_transport_var(std::string_view name);

// The node probe reads it from the running container.
bool is_node_probe_var(std::string_view name);

// It chooses a NIXL backend (TRTLLM_NIXL_KVCACHE_BACKEND, SGLANG_DISAGGREGATION_NIXL_BACKEND,
// KV_TRANSFER_CONFIG, DYN_KVBM_NIXL_BACKEND_<NAME> in upper case): the nixl probe reads it.
bool is_backend_var(std::string_view name);

// The `case` patterns of a probe's env filter (`UCX_*=*|NCCL_*=*|...`) for the variables the
// node probe (node_probe) or the nixl probe (chooses_backend) reads. A pattern may match more
// than the C++ side keeps (a name's later letters, a value); the parser filters exactly.
std::string node_probe_env_patterns();
std::string backend_env_patterns();

} // namespace icheck::dynamo
