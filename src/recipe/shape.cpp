#include "recipe/shape.hpp"

#include <algorithm>
#include "util/truthy.hpp"

namespace icheck::recipe {

bool is_worker(const Service& service) {
  return dynamo::is_worker(service.role);
}

static bool has_role(const Deployment& dgd, dynamo::Role role) {
  return std::any_of(dgd.services.begin(), dgd.services.end(),
                     [&](const Service& s) { return s.role == role; });
}

bool is_disagg(const Deployment& dgd) {
  return has_role(dgd, dynamo::Role::prefill) && has_role(dgd, dynamo::Role::decode);
}

bool roles_known(const Deployment& dgd) {
  return !has_role(dgd, dynamo::Role::unknown);
}

bool is_aggregated(const Deployment& dgd) {
  return !is_disagg(dgd) && roles_known(dgd);
}

bool is_cross_node(const Deployment& dgd) {
  int worker_gpus = 0;
  for (const auto& service : dgd.services) {
    if (!is_worker(service)) {
      continue;
    }
    if (service.node_count > 1 || (service.replicas > 1 && service.gpus > 0)) {
      return true;
    }
    worker_gpus += service.replicas * service.gpus;
  }
  return worker_gpus > gpus_per_node;
}

bool mnnvl_intended(const Deployment& dgd) {
  return std::any_of(dgd.services.begin(), dgd.services.end(),
                     [](const Service& s) { return is_worker(s) && s.imex_channel; });
}

}  // namespace icheck::recipe
