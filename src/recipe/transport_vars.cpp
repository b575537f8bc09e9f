#include "recipe/transport_vars.hpp"

#include <initializer_list>

namespace icheck::recipe {

static bool starts_with_any(std::string_view name, std::initializer_list<std::string_view> list) {
  for (auto prefix : list) {
    if (name.starts_with(prefix)) {
      return true;
    }
  }
  return false;
}

static bool contains_any(std::string_view name, std::initializer_list<std::string_view> list) {
  for (auto part : list) {
    if (name.find(part) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool is_transport_var(std::string_view name) {
  if (starts_with_any(name, {"NIXL_", "UCX_", "NCCL_", "GLOO_", "VLLM_NIXL_"})) {
    return true;
  }
  // Most TRTLLM_* tune the engine (GC, PDL, MoE); only these move the KV cache.
  return name.starts_with("TRTLLM_") && contains_any(name, {"NIXL", "UCX", "KVCACHE", "MNNVL"});
}

bool is_rdma_resource(std::string_view resource) {
  // GKE multi-networking exposes each RDMA NIC as `networking.gke.io.networks/rdma-N` plus an
  // address resource `.../rdma-N.IP`; the .IP one is no device, so it is not counted.
  if (resource.starts_with("networking.gke.io.networks/")) {
    return !resource.ends_with(".IP");
  }
  return resource.starts_with("rdma/") || resource == "vpc.amazonaws.com/efa";
}

}  // namespace icheck::recipe
