#pragma once
// Which NIXL backend(s) a worker's disaggregated KV transfer uses, from the framework's own
// setting (Dynamo's EFA guide: "Each framework selects the backend differently"): SGLang's
// SGLANG_DISAGGREGATION_NIXL_BACKEND, vLLM's --kv-transfer-config
// {"kv_connector_extra_config":{"backends":[...]}} (in the container's command line, or in a
// variable it references), TRT-LLM's TRTLLM_NIXL_KVCACHE_BACKEND; UCX, the default of all of
// them, when none is set. Dynamo KVBM's DYN_KVBM_NIXL_BACKEND_<NAME>=true selects KVBM's own
// backends (offload tiers), not the prefill->decode transfer: kept apart.
//
// Above the backend sits the library that moves KV at all: NIXL in every Dynamo recipe by
// default, but each framework can bypass it: TRT-LLM's cache_transceiver_config.backend
// (UCX: UCX directly, MPI, MOONCAKE; DEFAULT and NIXL: NIXL), SGLang's
// --disaggregation-transfer-backend (nixl, mooncake, ...), vLLM's kv_connector
// (NixlConnector, or another connector). Pure.

#include "dynamo/framework.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "recipe/model.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::rules {

// A variable that looks like a NIXL backend choice, set in the container, which its framework
// does not read (dynamo/framework.hpp): it chose nothing.
struct IgnoredVar {
  std::string name;
  std::string value;
  std::string real;  // where the framework takes the choice from
};

struct KvBackends {
  dynamo::Framework framework = dynamo::Framework::unknown;  // from the command line
  std::vector<IgnoredVar> ignored;
  std::vector<std::string> ib_devices;  // SGLang's --disaggregation-ib-device: Mooncake's HCAs
  std::string library = "NIXL";     // what moves KV: "NIXL", "UCX" (directly), "MPI", "MOONCAKE", a connector
  std::string library_source;       // where it was read ("" when nothing chose it)
  // The library is the framework's default only because what chooses it was not read (TRT-LLM's
  // engine config named by --extra-engine-args, in a run that did not read it): not a fact.
  bool library_assumed = false;
  bool via_nixl() const { return library == "NIXL"; }
  bool over_ucx() const;  // UCX carries the KV: NIXL's UCX backend, or UCX directly
  std::vector<std::string> names{"UCX"};  // the KV transfer's backends, upper case, first-seen order
  std::string source = "default";         // where they were read: "TRTLLM_NIXL_KVCACHE_BACKEND", ...
  std::vector<std::string> kvbm;          // KVBM's backends (DYN_KVBM_NIXL_BACKEND_<NAME>=true)
  bool is_default() const { return source == "default"; }
  // Why the choice could not be read, when it could not: a multinode worker's worker pod runs
  // ray or sshd, the engine's command line (and its backend flags) is its leader's, and the
  // leader was not probed. names then hold only the framework's default, which nothing vouches for.
  std::string unknown;
  std::string unknown_next;                  // what settles it
  bool uses(const std::string& name) const;  // the KV transfer uses it
  std::string joined() const;                // "UCX" | "LIBFABRIC, UCX"
  std::string path() const;                  // "NIXL with UCX" | "UCX directly, not NIXL"
  // Every plugin NIXL needs in this pod: the transfer's, then KVBM's not already listed.
  std::vector<std::string> plugins_needed() const;
  // The library or backend names outside the vocabulary ("backend HYPERLANE"), joined; "" when
  // every one is known. Such a name decides nothing: the finding that shows it warns.
  std::string not_understood() const;
};

// What the tool knows moves KV between pods: the libraries NIXL, UCX, MPI, MOONCAKE, and NIXL's
// network backends UCX, UCX_MO, LIBFABRIC, MOONCAKE, UCCL, GPUNETIO (ai-dynamo/nixl src/plugins).
inline constexpr std::string_view kKnownKvNames =
    "UCX, UCX_MO, LIBFABRIC, MOONCAKE, UCCL, GPUNETIO";

// A finding's detail for a path with names outside the vocabulary: what was read, what was not
// understood, and that the transfer is not judged.
std::string not_understood_text(const KvBackends& b, std::string_view what);

// TRT-LLM's engine config as the worker reads it: cache_transceiver_config.backend ("" unset)
// and where it was read ("/engine_configs/prefill.yaml", "... (ConfigMap prefill-config)").
struct EngineTransceiver {
  std::string backend;
  std::string where;
};

// A recipe service's KV path: its literal env, command line and engine config (the ConfigMap of
// the same manifest that it mounts).
KvBackends service_kv_backends(const recipe::Service& service);

// The engine config a process in the pod was started with (probe::NixlFacts::engine_config);
// nullopt when there is none, or it could not be read as YAML.
std::optional<EngineTransceiver> engine_transceiver(const probe::NixlFacts& facts);

// env: the container's backend variables (probe::NixlFacts::backend_env); command_line: the
// container's command + args from the pod spec, `$(VAR)` references expanded from env.
KvBackends kv_backends(const std::map<std::string, std::string>& env,
                       const std::vector<std::string>& command_line,
                       const std::optional<EngineTransceiver>& engine = std::nullopt);

// Everything known about the path, for a "kv transfer" finding: "NIXL with UCX; backend not set
// in <where> (the framework's default); cache_transceiver_config.backend: DEFAULT in ...; KVBM: X".
std::string kv_transfer_text(const KvBackends& b, std::string_view where);

// path() with the source of the library when something chose it: "UCX directly, not NIXL
// (cache_transceiver_config.backend: UCX in ...)".
std::string kv_path_text(const KvBackends& b);

}  // namespace icheck::rules
