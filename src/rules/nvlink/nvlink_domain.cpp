#include "rules/nvlink/nvlink_domain.hpp"

namespace icheck::rules {

std::string fabric_domain(const probe::FabricInfo& info) {
  std::string domain;
  for (const auto& g : info.gpus) {
    if (!g.registered())
      continue;
    // A clique ID alone is not unique: only ClusterUUID with CliqueId names a domain (nccl #1301).
    auto here = "cluster " + g.cluster_uuid + " clique " + g.clique_id;
    if (!domain.empty() && domain != here)
      return {};
    domain = here;
  }
  return domain;
}

} // namespace icheck::rules
