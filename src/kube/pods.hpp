#pragma once
// Pods from `kubectl get pods -o json`: role as the Dynamo operator decides it
// (dynamo-nixl.md §3.2), the container to exec into, and whether the pod can be probed now.

#include "dynamo/role.hpp"
#include "util/expected.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::kube {

inline constexpr const char* kDeploymentLabel = "nvidia.com/dynamo-graph-deployment-name";
inline constexpr const char* kComponentTypeLabel = "nvidia.com/dynamo-component-type";
inline constexpr const char* kSubComponentTypeLabel = "nvidia.com/dynamo-sub-component-type";
inline constexpr const char* kComponentLabel = "nvidia.com/dynamo-component";
inline constexpr const char* kGroveCliqueLabel = "grove.io/podclique";  // <group>-ldr / <group>-wkr
// LeaderWorkerSet's pod labels (kubernetes-sigs/lws api/leaderworkerset/v1): the set's name, the
// group's index, and the pod's index in its group (the leader's is always "0"; the leader pod is
// named <set>-<group index>, its workers <set>-<group index>-<worker index>).
inline constexpr const char* kLwsNameLabel = "leaderworkerset.sigs.k8s.io/name";
inline constexpr const char* kLwsGroupIndexLabel = "leaderworkerset.sigs.k8s.io/group-index";
inline constexpr const char* kLwsWorkerIndexLabel = "leaderworkerset.sigs.k8s.io/worker-index";

struct ContainerChoice {
  std::string name = "main";  // the container the Dynamo operator creates
  bool given = false;         // -c on the command line: no fallback to the first container
};

struct PodInfo {
  std::string name;
  std::string namespace_;
  std::string node;
  std::string pod_ip;
  std::string host_ip;  // status.hostIP: the node's address
  std::string phase;
  bool ready = false;
  std::map<std::string, std::string> labels;
  dynamo::Role role = dynamo::Role::unknown;
  std::string role_not_understood;  // "component type 'main'": a label outside the vocabulary
  std::string component;            // nvidia.com/dynamo-component
  std::string dgd;                  // nvidia.com/dynamo-graph-deployment-name
  std::vector<std::string> containers;
  std::vector<std::string> command_line;  // the chosen container's command + args, as in the spec
  std::map<std::string, std::string> spec_env;  // its env with literal values, as in the spec
  bool host_ipc = false;  // spec.hostIPC: the pod shares the node's IPC namespace
  bool host_pid = false;  // spec.hostPID: and its PID namespace
  bool host_network = false;  // spec.hostNetwork: the node's network namespace
  // A multinode worker's leader or worker pod (LWS worker-index label, else the Grove clique
  // label, else the pod name), and the group the leader shares with its workers ("" when it
  // cannot be told); single and "" otherwise.
  dynamo::MultinodePart multinode = dynamo::MultinodePart::single;
  std::string multinode_group;
  std::string container;       // chosen; "" when -c names a container the pod lacks
  std::string container_note;  // "no container main; using first container X"
  bool container_running = false;
  long restart_count = 0;  // of the chosen container: its previous log holds why it restarted
  // The chosen container's state.running.startedAt (RFC 3339, UTC), "" when it is not running:
  // an event last seen before it is about an earlier instance (history, not the present).
  std::string started_at;
  std::string not_running_reason;  // "Pending: Unschedulable", "CrashLoopBackOff", ...

  bool probeable() const;
  std::string skip_detail() const;  // one line; "" when probeable
  std::string next_step() const;    // the command that shows why; "" when probeable
};

// A List, PodList, or a single Pod. Errors name what was malformed.
Expected<std::vector<PodInfo>> parse_pods_json(std::string_view json,
                                               const ContainerChoice& choice);

// dynamo::read_role with the pod's labels (component type, sub-component type, component
// name), the container's command + args and its literal env from the spec.
dynamo::RoleReading pod_role_reading(const std::map<std::string, std::string>& labels,
                                     const std::vector<std::string>& command_line,
                                     const std::map<std::string, std::string>& env = {});

// pod_role_reading(...).role
dynamo::Role pod_role(const std::map<std::string, std::string>& labels,
                      const std::vector<std::string>& command_line,
                      const std::map<std::string, std::string>& env = {});

// The leader pod of a multinode worker's worker pod (same namespace and group); nullptr for a
// leader, a single pod, or a worker whose leader is not among pods.
const PodInfo* multinode_leader(const std::vector<PodInfo>& pods, const PodInfo& pod);

// Workers only (prefill, decode, worker) unless all_components; and every pod whose role is
// unknown because a value outside the vocabulary was met (it may be a worker: not dropped).
std::vector<PodInfo> select_targets(const std::vector<PodInfo>& pods, bool all_components);

// `-l` values for the target kinds.
std::string default_selector();  // every pod of any DynamoGraphDeployment
std::string deployment_selector(const std::string& dgd);
std::string deployments_selector(const std::vector<std::string>& dgds);  // --recipe DIR

}  // namespace icheck::kube
