#pragma once
// Findings about the fabric as this pod sees it (internal to src/rules): each port against its
// own adapter's rate, and RoCE addressing (GIDs on the pod's netdevs, the GID index variables).

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

#include <optional>
#include <vector>

namespace icheck::rules::node {

// fabric "adapter rate": Active InfiniBand ports slower than their adapter model's lane speed.
std::optional<report::Finding> adapter_rate(const NodeView& v,
                                            const std::vector<const probe::IbPort*>& active);
// rdma-access "roce gids": a RoCE port whose GIDs all sit on netdevs outside the pod's namespace
// (by name and by address, rules/fabric/gid_home.hpp); unconfirmed addresses warn, never ok.
std::optional<report::Finding> roce_netns(const NodeView& v);
// ucx "roce addressing" (UCX_IB_GID_INDEX) and "nccl gid index" (NCCL_IB_GID_INDEX) against the
// GID tables; nullopt when the tables were not read (the generic advice then stands).
std::vector<report::Finding> gid_index(const NodeView& v);
bool gid_tables_known(const NodeView& v);

} // namespace icheck::rules::node
