#pragma once
// What a Dynamo component is, decided once for a recipe service and for a running pod
// (dynamo-nixl.md §1.4, §3.2: the operator's component-type -> sub-component-type rule,
// then the engine's own flags, then the name older recipes give their services).

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::dynamo {

enum class Role { unknown, frontend, prefill, decode, worker, planner, epp };

// The one spelling in output and labels: "prefill", "worker", ...; "" for unknown.
std::string_view role_name(Role role);

// role_name, or "unknown" where that is "" (counts of pods by role).
std::string_view role_label(Role role);

// Prefill, decode and aggregated workers carry KV; frontend, planner, epp do not.
bool is_worker(Role role);

// Prefill or decode: the two halves of a disaggregated deployment.
bool is_split(Role role);

// Where a multinode worker's pod sits: Grove names the cliques <component>-ldr and -wkr
// (dynamo-nixl.md §3.4); a worker pod may run only ray or sshd while the leader runs the engine.
enum class MultinodePart { single, leader, worker };

// From a Grove clique name (label grove.io/podclique) or a pod name.
MultinodePart multinode_part(std::string_view clique_or_pod_name);

// "leader", "worker"; "" for single (output and JSON).
std::string_view multinode_part_name(MultinodePart part);

// The leader/worker group of a clique or pod name: the part before -ldr/-wkr (one
// PodCliqueScalingGroup replica's component, "big-0-trtllmworker"); "" for a single-node component.
std::string multinode_group(std::string_view clique_or_pod_name);

// What a service or pod says about its role. The same fields are filled from a recipe
// (componentType or v1beta1 type, subComponentType, the service name, the main container's
// command + args and literal env) and from a pod (its labels, the container's spec).
struct RoleEvidence {
  std::string component_type;             // nvidia.com/dynamo-component-type, componentType, type
  std::string sub_component_type;         // nvidia.com/dynamo-sub-component-type, subComponentType
  std::string name;                       // nvidia.com/dynamo-component, the service's name
  std::vector<std::string> command_line;  // command + args as written in the spec
  std::map<std::string, std::string> env; // literal env of the container ($VAR values)
};

// A component type the operator knows (frontend, worker, prefill, decode, planner, epp, any
// case), or none given.
bool is_known_component_type(std::string_view type);

// A role and what decided it, for output ("the engine's role flag"), with the value outside
// the vocabulary that was met on the way ("componentType 'main'"), if any: such a value
// never decides anything, the next evidence does.
struct RoleReading {
  Role role = Role::unknown;
  std::string by;              // "" when nothing told the role
  std::string not_understood;  // "" when every value met was known
};

// In order: component type prefill|decode; a non-worker type (frontend, planner, epp); for a
// worker, untyped or unknown type: sub-component type prefill|decode, the engine's role flag
// on the command line (dynamo/engine_flags.hpp; split as a shell splits a `sh -c` script,
// `$VAR` taken from env; a flag value outside the vocabulary leaves the role unknown), the
// variable Dynamo reads in place of the flag, a command line that starts a Dynamo backend
// without one (aggregated worker; not under an unknown type, where a missing flag proves
// nothing), a name containing prefill or decode (older recipes only name them), and last the
// worker type itself.
RoleReading read_role(const RoleEvidence& evidence);

// read_role(evidence).role
Role classify_role(const RoleEvidence& evidence);

} // namespace icheck::dynamo
