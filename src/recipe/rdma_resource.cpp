#include "recipe/rdma_resource.hpp"

namespace icheck::recipe {

bool is_rdma_resource(std::string_view resource) {
  // GKE multi-networking exposes each RDMA NIC as `networking.gke.io.networks/rdma-N` plus an
  // address resource `.../rdma-N.IP`; the .IP one is no device, so it is not counted.
  if (resource.starts_with("networking.gke.io.networks/")) {
    return !resource.ends_with(".IP");
  }
  return resource.starts_with("rdma/") || resource == "vpc.amazonaws.com/efa";
}

} // namespace icheck::recipe
