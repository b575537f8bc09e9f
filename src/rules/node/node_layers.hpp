#pragma once
// One function per layer of node mode (internal to src/rules); judge_node calls them in order.

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

#include <optional>
#include <vector>

namespace icheck::rules::node {

std::vector<report::Finding> judge_fabric(const NodeView& v);
std::vector<report::Finding> judge_rdma_access(const NodeView& v);
std::vector<report::Finding> judge_gpudirect(const NodeView& v);
std::vector<report::Finding> judge_nvlink(const NodeView& v);
std::vector<report::Finding> judge_ucx(const NodeView& v);
// ucx: UCX_NET_DEVICES against the Active, GPU-affine ports (net_devices.cpp); nullopt without
// ports.
std::optional<report::Finding> judge_net_devices(const NodeView& v);

// Platform checks, each in its layer (nvlink_fabric.cpp, efa.cpp, pcie.cpp).
std::vector<report::Finding> judge_nvlink_fabric(const NodeView& v); // nvlink: IMEX, GPU fabric
std::vector<report::Finding>
judge_efa(const NodeView& v);  // rdma-access: libfabric EFA (rdma_access/efa.cpp)
std::vector<report::Finding> judge_pcie_nics(const NodeView& v);     // fabric: NIC PCIe links
std::vector<report::Finding> judge_pcie_gpus(const NodeView& v); // gpudirect: GPU links, IOMMU, ACS

}  // namespace icheck::rules::node
