#pragma once
// What ucx_info -d says about GPU memory on the RDMA memory domains (internal to src/rules);
// the gpudirect layer uses it as evidence, the ucx layer reports transports.

#include <string>

#include "rules/node/node_view.hpp"

namespace icheck::rules::node {

struct UcxGpuMemory {
  std::string domain;        // the first IB memory domain (mlx5_0), "" when UCX lists none
  bool confirmed = false;    // cuda among its memory types, or dmabuf registration
  bool dmabuf = false;
  bool ucx_has_cuda = false; // a cuda_copy/cuda memory domain exists at all
};

UcxGpuMemory ucx_gpu_memory(const probe::NodeFacts& facts);

}  // namespace icheck::rules::node
