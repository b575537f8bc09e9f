#pragma once
// Typed model of the DynamoGraphDeployments in one recipe manifest file. Both API versions
// (v1alpha1 services, v1beta1 components) load into the same shape, so rules see one model.

#include "dynamo/role.hpp"

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

struct ConfigMount {
  std::string path;        // mountPath, without a trailing '/'
  std::string config_map;  // the ConfigMap's name
  std::string sub_path;    // "" mounts every key as path/key; else that one key at path
};

struct Service {
  std::string name;
  std::string component_type;                 // v1alpha1 componentType, v1beta1 type
  std::string sub_component_type;             // v1alpha1 subComponentType ("" when absent or null)
  dynamo::Role role = dynamo::Role::unknown;  // dynamo::read_role of the fields above
  dynamo::RoleReading role_reading;           // the same, with what decided it
  int replicas = 1;
  int node_count = 1;  // multinode.nodeCount (1 without a multinode block)
  int gpus = 0;        // per pod: limits gpu / nvidia.com/gpu (requests if no limit)
  std::map<std::string, std::string> rdma_resources;  // resource name -> quantity
  // Effective env of the main container: graph-level env overridden by component env.
  std::vector<EnvVar> env;
  std::vector<std::string> env_from;  // "secretRef:NAME", "configMapRef:NAME"
  bool ipc_lock = false;              // securityContext.capabilities.add has IPC_LOCK
  bool privileged = false;            // securityContext.privileged: true
  bool host_ipc = false;              // the pod's hostIPC: true (shares the node's IPC namespace)
  bool host_pid = false;              // the pod's hostPID: true (shares the node's PID namespace)
  bool resource_claims = false;       // DRA claims (resourceClaims / resources.claims)
  // The pod's resourceClaims (name -> its resourceClaimTemplateName or resourceClaimName) and
  // the claim names the main container (or a v1alpha1 service's resources) asks for.
  std::map<std::string, std::string> pod_claims;
  std::vector<std::string> container_claims;
  // The container holds a claim of the pod that names a template or claim (of a ComputeDomain
  // in the same file, when the file has one): the IMEX channel multi-node NVLink needs.
  bool imex_channel = false;
  std::string image;                       // the main container's image, as written
  std::vector<std::string> args;           // command + args, split on whitespace
  std::vector<std::string> command_line;   // command + args as the spec lists them
  std::vector<ConfigMount> config_mounts;  // configMap volumes the main container mounts
  // TRT-LLM's --extra-engine-args file: the path as the container sees it ($(VAR)/${VAR}
  // expanded from literal env) and, when a ConfigMap of the same file mounts it, its text.
  std::string engine_config_path;
  std::optional<std::string> engine_config;
  std::string engine_config_map;  // the ConfigMap it came from
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
  std::map<std::string, std::map<std::string, std::string>> config_maps;  // name -> data
  // spec.channel.resourceClaimTemplate.name of each ComputeDomain in the file.
  std::vector<std::string> compute_domain_templates;
  // Why the file could not be read ("file:line: message"); deployments are then empty.
  std::optional<std::string> error;
};

// The service's env with literal values (references left out), for dynamo::expand_env_refs.
std::map<std::string, std::string> literal_env(const Service& service);

// A value of the env var in a service, if set.
const EnvVar* find_env(const Service& service, std::string_view name);

// The value as it may be printed: a reference as "from secretKeyRef:…", a literal with
// secret-looking names masked (outside/mask.hpp).
std::string shown(const EnvVar& var);

}  // namespace icheck::recipe
