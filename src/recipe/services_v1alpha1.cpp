#include "recipe/env_list.hpp"
#include "recipe/role.hpp"
#include "recipe/services.hpp"
#include "recipe/yaml_read.hpp"

namespace icheck::recipe::detail {

static Service parse_service(const std::string& name, const YAML::Node& node,
                             const std::vector<EnvVar>& graph_env) {
  Service service;
  service.name = name;
  service.component_type = scalar(child(node, "componentType"));
  service.sub_component_type = scalar(child(node, "subComponentType"));
  service.replicas = whole_number(child(node, "replicas"), 1);
  service.node_count = whole_number(child(child(node, "multinode"), "nodeCount"), 1);
  service.env = graph_env;
  merge_env(service.env, parse_env_list(child(node, "envs")));
  const std::string secret = scalar(child(node, "envFromSecret"));
  if (!secret.empty()) {
    service.env_from.push_back("secretRef:" + secret);
  }
  read_resources(child(node, "resources"), service);
  const YAML::Node pod = child(node, "extraPodSpec");
  if (present(child(pod, "resourceClaims"))) {
    service.resource_claims = true;
  }
  read_container(pod, child(pod, "mainContainer"), service);
  service.role_reading = read_role(service);
  service.role = service.role_reading.role;
  return service;
}

std::vector<Service> parse_v1alpha1_services(const YAML::Node& spec) {
  const std::vector<EnvVar> graph_env = parse_env_list(child(spec, "envs"));
  std::vector<Service> out;
  const YAML::Node services = child(spec, "services");
  if (services.IsDefined() && services.IsMap()) {
    for (const auto& entry : services) {
      out.push_back(parse_service(scalar(entry.first), entry.second, graph_env));
    }
  }
  return out;
}

}  // namespace icheck::recipe::detail
