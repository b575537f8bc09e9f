#pragma once
// Typed model of the DynamoGraphDeployments in one recipe manifest file. Both API versions
// (v1alpha1 services, v1beta1 components) load into the same shape, so rules see one model.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace icheck::recipe {

struct EnvVar {
  std::string name;
  // The literal value, or for valueFrom a reference such as "secretKeyRef:hf-token/HF_TOKEN",
  // "fieldRef:status.podIP", "configMapKeyRef:cfg/key": never the referenced secret itself.
  std::string value;
  bool is_reference = false;
};

struct Service {
  std::string name;
  std::string component_type;      // v1alpha1 componentType, v1beta1 type
  std::string sub_component_type;  // v1alpha1 subComponentType ("" when absent or null)
  std::string role;                // prefill, decode, worker, frontend, epp, ... ("" unknown)
  int replicas = 1;
  int node_count = 1;              // multinode.nodeCount (1 without a multinode block)
  int gpus = 0;                    // per pod: limits gpu / nvidia.com/gpu (requests if no limit)
  std::map<std::string, std::string> rdma_resources;  // resource name -> quantity
  // Effective env of the main container: graph-level env overridden by component env.
  std::vector<EnvVar> env;
  std::vector<std::string> env_from;  // "secretRef:NAME", "configMapRef:NAME"
  bool ipc_lock = false;              // securityContext.capabilities.add has IPC_LOCK
  bool privileged = false;            // securityContext.privileged: true
  bool resource_claims = false;       // DRA claims (resourceClaims / resources.claims)
  std::vector<std::string> args;      // command + args, split on whitespace
};

struct Deployment {
  std::string name;
  std::string api_version;  // "nvidia.com/v1alpha1" or "nvidia.com/v1beta1"
  int line = 0;             // 1-based line of the document in its file
  std::vector<Service> services;
  bool compute_domain_in_file = false;  // a ComputeDomain sits in the same manifest file
};

struct ManifestFile {
  std::filesystem::path path;
  std::string display_name;  // path relative to the folder loaded (or the file name)
  std::vector<Deployment> deployments;
  std::vector<std::string> other_kinds;  // "Kind/name" of every non-DGD document
  // Why the file could not be read ("file:line: message"); deployments are then empty.
  std::optional<std::string> error;
};

// A value of the env var in a service, if set.
const EnvVar* find_env(const Service& service, std::string_view name);

// The value as it may be printed: a reference as "from secretKeyRef:…", a literal with
// secret-looking names masked (report/redact.hpp).
std::string shown(const EnvVar& var);

}  // namespace icheck::recipe
