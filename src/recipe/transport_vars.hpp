#pragma once
// Which environment variables steer the KV transport and are therefore listed and compared.

#include <string_view>

namespace icheck::recipe {

// NIXL_*, UCX_*, NCCL_*, GLOO_*, VLLM_NIXL_*, and the TRTLLM_* ones that name the KV-cache
// transfer (TRTLLM_*NIXL*, *UCX*, *KVCACHE*, *MNNVL*).
bool is_transport_var(std::string_view name);

}  // namespace icheck::recipe

namespace icheck::recipe {

// Device-plugin resources that hand a pod an RDMA NIC: rdma/* (ib, shared_ib,
// hca_shared_devices_a), vpc.amazonaws.com/efa, networking.gke.io.networks/* (not the .IP
// address resources).
bool is_rdma_resource(std::string_view resource);

}  // namespace icheck::recipe
