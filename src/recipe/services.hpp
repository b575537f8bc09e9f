#pragma once
// DynamoGraphDeployment documents into the model (internal to recipe/).

#include "recipe/model.hpp"
#include "util/expected.hpp"

#include <yaml-cpp/yaml.h>

namespace icheck::recipe::detail {

// spec.services.<name> with spec.envs (nvidia.com/v1alpha1).
std::vector<Service> parse_v1alpha1_services(const YAML::Node& spec);

// spec.components[] with spec.env (nvidia.com/v1beta1).
std::vector<Service> parse_v1beta1_components(const YAML::Node& spec);

// The main container (either version) of a pod spec: env merged over the graph's, envFrom,
// resources, security context, command + args, the configMap volumes it mounts.
void read_container(const YAML::Node& pod_spec, const YAML::Node& container, Service& service);

// configMap volumes of the pod that the container mounts, into service.config_mounts.
void read_config_mounts(const YAML::Node& pod_spec, const YAML::Node& container, Service& service);

// TRT-LLM's --extra-engine-args of every service, with its text where a ConfigMap of the same
// file is mounted at that path (after every document was read).
void resolve_engine_configs(ManifestFile& file);

// The container holds a pod claim naming a template or claim; where the file has ComputeDomains,
// one of their channel templates (Service::imex_channel).
bool holds_imex_channel(const Service& service, const std::vector<std::string>& cd_templates);

// Resource limits/requests into gpus and rdma_resources (shared by both versions).
void read_resources(const YAML::Node& resources, Service& service);

// capabilities.add IPC_LOCK, privileged.
void read_security_context(const YAML::Node& security_context, Service& service);

}  // namespace icheck::recipe::detail
