#pragma once
// Which resource names hand a pod an RDMA NIC.

#include <string_view>

namespace icheck::recipe {

// Device-plugin resources that hand a pod an RDMA NIC: rdma/* (ib, shared_ib,
// hca_shared_devices_a), vpc.amazonaws.com/efa, networking.gke.io.networks/* (not the .IP
// address resources).
bool is_rdma_resource(std::string_view resource);

} // namespace icheck::recipe
