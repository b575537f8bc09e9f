#include "check/env_facts.hpp"

#include "dynamo/transport_vars.hpp"
#include "recipe/shape.hpp"

#include <boost/json/array.hpp>

namespace icheck::check {

namespace {

boost::json::object service_facts(const recipe::Service& s) {
  boost::json::object rdma;
  for (const auto& [name, quantity] : s.rdma_resources) {
    rdma[name] = quantity;
  }
  boost::json::object out{{"name", s.name},         {"role", dynamo::role_name(s.role)},
                          {"replicas", s.replicas}, {"nodeCount", s.node_count},
                          {"gpus", s.gpus},         {"rdmaResources", std::move(rdma)}};
  if (!s.role_reading.not_understood.empty()) {
    out["notUnderstood"] = s.role_reading.not_understood;
    out["roleFrom"] = s.role_reading.by;
  }
  return out;
}

boost::json::object env_listing(const recipe::Deployment& dgd) {
  boost::json::object out;
  for (const auto& s : dgd.services) {
    boost::json::object vars;
    for (const auto& var : s.env) {
      if (dynamo::is_transport_var(var.name)) {
        vars[var.name] = recipe::shown(var);
      }
    }
    if (!vars.empty()) {
      out[s.name] = std::move(vars);
    }
  }
  return out;
}

std::string short_version(const std::string& api_version) {
  const auto slash = api_version.find('/');
  return slash == std::string::npos ? api_version : api_version.substr(slash + 1);
}

}  // namespace

boost::json::object env_facts(const recipe::Deployment& dgd) {
  boost::json::array services;
  for (const auto& s : dgd.services) {
    services.push_back(service_facts(s));
  }
  return {{"name", dgd.name},
          {"apiVersion", dgd.api_version},
          {"disagg", recipe::is_disagg(dgd)},
          {"crossNode", recipe::is_cross_node(dgd)},
          {"services", std::move(services)},
          {"env", env_listing(dgd)}};
}

std::string env_summary(const recipe::Deployment& dgd) {
  std::string out = short_version(dgd.api_version) +
                    (recipe::is_disagg(dgd)       ? " disagg"
                     : recipe::is_aggregated(dgd) ? " aggregated"
                                                  : " roles unknown") +
                    (recipe::is_cross_node(dgd) ? " cross-node" : " single-node");
  for (const auto& s : dgd.services) {
    if (!recipe::is_worker(s)) {
      continue;
    }
    out += " · " + std::to_string(s.replicas) + " " + std::string(dynamo::role_name(s.role)) +
           " ×" + std::to_string(s.gpus) + " GPU";
    if (s.node_count > 1) {
      out += " ×" + std::to_string(s.node_count) + " nodes";
    }
  }
  return out;
}

}  // namespace icheck::check
