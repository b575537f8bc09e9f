#pragma once
// The typed facts of a pod, a recipe service or a prefill/decode pair flattened into the fact
// names of docs/knowledge.md, for the known-trouble rows (knowledge/evaluate.hpp). Pure. What a
// reader could not read is left out (unknown); a prefix read whole is marked complete.

#include "knowledge/facts.hpp"
#include "probe/facts.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "probe/stack/stack_versions.hpp"
#include "recipe/model.hpp"
#include "rules/nixl/nixl_backend.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace icheck::rules::known {

// env.<NAME> for each variable; complete: the whole environment was read (env.X absent = unset).
void add_env(knowledge::FactMap& facts, const std::map<std::string, std::string>& env,
             bool complete);

// engine.framework, engine.kv_backend, engine.nixl_backends, engine.kv_connector (and
// engine.kv_transfer.<field> of --kv-transfer-config), engine.flag.<--flag> for each flag of the
// command line (complete: it is the engine's own), engine.cache_transceiver.<field> of TRT-LLM's
// engine config text.
void add_engine(knowledge::FactMap& facts, const std::vector<std::string>& command_line,
                const KvBackends& backends, const std::optional<std::string>& engine_config);

// The pod's networking, as its spec and status say.
struct PodNetwork {
  std::optional<bool> host_network, host_ipc, host_pid;
  std::string pod_ip, host_ip;
  std::string node_internal_ip, cloud;  // from the node object where it was readable
};
void add_pod(knowledge::FactMap& facts, const PodNetwork& pod);

// gpu.*, nic.count, fabric.link_layer, nvlink.multinode, platform.efa, peermem.module,
// version.driver, version.kernel, version.ucx (ucx_info -v).
void add_node(knowledge::FactMap& facts, const probe::NodeFacts& node);
// version.nixl, version.nixl-cuXX, version.ucx from the NIXL probe, where add_stack and add_node
// (called first) left them unknown.
void add_nixl(knowledge::FactMap& facts, const probe::NixlFacts& nixl);
// version.<lib> for each library whose copies agree (stack_versions.hpp).
void add_stack(knowledge::FactMap& facts, const probe::StackVersions& stack);

// A pod's facts whole, from the probe's typed facts only (each section was parsed once, in
// probe/): env (the whole environment where the probe read it, else its transport variables),
// the node, NIXL and stack versions, the engine, the pod's networking.
knowledge::FactMap pod_facts(const probe::NodeFacts& node, const probe::NixlFacts& nixl,
                             const std::vector<std::string>& command_line,
                             const KvBackends& backends, const PodNetwork& network);

// A recipe service's: its literal env (complete unless envFrom may add more), command line,
// engine config, hostIPC/hostPID.
knowledge::FactMap service_facts(const recipe::Service& service);

// prefill.<fact> and decode.<fact> of both, pair.same_node, pair.roce_v2_gid_index_differs.
knowledge::FactMap pair_facts(const knowledge::FactMap& prefill, const knowledge::FactMap& decode,
                              std::optional<bool> same_node,
                              std::optional<bool> roce_v2_gid_index_differs);

// A fact name some reader above can fill (prefixes env., engine.flag., engine.kv_transfer.,
// engine.cache_transceiver., version.<lib>, and pair prefixes): the rows may name only these.
bool provided_fact(std::string_view name);

}  // namespace icheck::rules::known
