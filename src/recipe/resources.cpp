#include "recipe/env_list.hpp"
#include "recipe/rdma_resource.hpp"
#include "recipe/services.hpp"
#include "recipe/yaml_read.hpp"

#include <algorithm>

namespace icheck::recipe::detail {

static void read_quantities(const YAML::Node& map, Service& service) {
  if (!map.IsDefined() || !map.IsMap()) {
    return;
  }
  for (const auto& entry : map) {
    const std::string key = scalar(entry.first);
    if (key == "custom") {  // v1alpha1 puts extended resources under `custom`
      read_quantities(entry.second, service);
    } else if (key == "gpu" || key == "nvidia.com/gpu") {
      if (service.gpus == 0) {
        service.gpus = whole_number(entry.second, 0);
      }
    } else if (is_rdma_resource(key) && !service.rdma_resources.contains(key)) {
      service.rdma_resources[key] = scalar(entry.second);
    }
  }
}

void read_resources(const YAML::Node& resources, Service& service) {
  // Limits first: a device plugin resource is granted by its limit.
  read_quantities(child(resources, "limits"), service);
  read_quantities(child(resources, "requests"), service);
  const YAML::Node claims = child(resources, "claims");
  if (present(claims)) {
    service.resource_claims = true;
  }
  if (claims.IsDefined() && claims.IsSequence()) {
    for (const auto& claim : claims)
      service.container_claims.push_back(scalar(child(claim, "name")));
  }
}

static void read_pod_claims(const YAML::Node& pod_spec, Service& service) {
  const YAML::Node claims = child(pod_spec, "resourceClaims");
  if (!claims.IsDefined() || !claims.IsSequence())
    return;
  for (const auto& claim : claims) {
    std::string source = scalar(child(claim, "resourceClaimTemplateName"));
    if (source.empty())
      source = scalar(child(claim, "resourceClaimName"));
    service.pod_claims[scalar(child(claim, "name"))] = source;
  }
}

bool holds_imex_channel(const Service& service, const std::vector<std::string>& cd_templates) {
  for (const auto& name : service.container_claims) {
    const auto pod = service.pod_claims.find(name);
    if (name.empty() || pod == service.pod_claims.end() || pod->second.empty())
      continue;  // dangling
    if (cd_templates.empty() ||
        std::find(cd_templates.begin(), cd_templates.end(), pod->second) != cd_templates.end())
      return true;
  }
  return false;
}

void read_security_context(const YAML::Node& security_context, Service& service) {
  if (scalar(child(security_context, "privileged")) == "true") {
    service.privileged = true;
  }
  const YAML::Node add = child(child(security_context, "capabilities"), "add");
  if (add.IsDefined() && add.IsSequence()) {
    for (const auto& capability : add) {
      const std::string name = scalar(capability);
      if (name == "IPC_LOCK" || name == "CAP_IPC_LOCK") {
        service.ipc_lock = true;
      }
    }
  }
}

void read_container(const YAML::Node& pod_spec, const YAML::Node& container, Service& service) {
  if (const std::string image = scalar(child(container, "image")); !image.empty())
    service.image = image;
  merge_env(service.env, parse_env_list(child(container, "env")));
  for (auto& ref : parse_env_from(child(container, "envFrom"))) {
    service.env_from.push_back(std::move(ref));
  }
  read_resources(child(container, "resources"), service);
  read_security_context(child(container, "securityContext"), service);
  read_pod_claims(pod_spec, service);
  service.host_ipc = scalar(child(pod_spec, "hostIPC")) == "true";
  service.host_pid = scalar(child(pod_spec, "hostPID")) == "true";
  for (const char* key : {"command", "args"}) {
    const YAML::Node list = child(container, key);
    if (list.IsDefined() && list.IsSequence()) {
      for (const auto& item : list)
        service.command_line.push_back(scalar(item));
    } else if (list.IsDefined() && list.IsScalar()) {
      service.command_line.push_back(list.Scalar());
    }
    for (auto& word : words(list)) {
      service.args.push_back(std::move(word));
    }
  }
  read_config_mounts(pod_spec, container, service);
}

}  // namespace icheck::recipe::detail
