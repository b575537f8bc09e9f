#pragma once
// One function per layer of node mode (internal to src/rules); judge_node calls them in order.

#include <vector>

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

namespace icheck::rules::node {

std::vector<report::Finding> judge_fabric(const NodeView& v);
std::vector<report::Finding> judge_rdma_access(const NodeView& v);
std::vector<report::Finding> judge_gpudirect(const NodeView& v);
std::vector<report::Finding> judge_nvlink(const NodeView& v);
std::vector<report::Finding> judge_ucx(const NodeView& v);

// Platform checks, each in its layer (nvlink_fabric.cpp, efa.cpp, pcie.cpp).
std::vector<report::Finding> judge_nvlink_fabric(const NodeView& v); // nvlink: IMEX, GPU fabric
std::vector<report::Finding> judge_efa(const NodeView& v);           // rdma-access: libfabric EFA
std::vector<report::Finding> judge_pcie_nics(const NodeView& v);     // fabric: NIC PCIe links
std::vector<report::Finding> judge_pcie_gpus(const NodeView& v); // gpudirect: GPU links, IOMMU, ACS

}  // namespace icheck::rules::node
