#include "recipe/env_list.hpp"
#include "recipe/role.hpp"
#include "recipe/services.hpp"
#include "recipe/yaml_read.hpp"

namespace icheck::recipe::detail {

// The operator injects its defaults into the container named "main".
static YAML::Node main_container(const YAML::Node& pod_spec) {
  const YAML::Node containers = child(pod_spec, "containers");
  if (containers.IsDefined() && containers.IsSequence()) {
    for (const auto& container : containers) {
      if (scalar(child(container, "name")) == "main") {
        return container;
      }
    }
  }
  return YAML::Node();
}

static Service parse_component(const YAML::Node& node, const std::vector<EnvVar>& graph_env) {
  Service service;
  service.name = scalar(child(node, "name"));
  service.component_type = scalar(child(node, "type"));
  service.replicas = whole_number(child(node, "replicas"), 1);
  service.node_count = whole_number(child(child(node, "multinode"), "nodeCount"), 1);
  service.env = graph_env;
  const YAML::Node pod_spec = child(child(node, "podTemplate"), "spec");
  service.resource_claims = present(child(pod_spec, "resourceClaims"));
  read_container(pod_spec, main_container(pod_spec), service);
  service.role_reading = read_role(service);
  service.role = service.role_reading.role;
  return service;
}

std::vector<Service> parse_v1beta1_components(const YAML::Node& spec) {
  const std::vector<EnvVar> graph_env = parse_env_list(child(spec, "env"));
  std::vector<Service> out;
  const YAML::Node components = child(spec, "components");
  if (components.IsDefined() && components.IsSequence()) {
    for (const auto& component : components) {
      out.push_back(parse_component(component, graph_env));
    }
  }
  return out;
}

}  // namespace icheck::recipe::detail
