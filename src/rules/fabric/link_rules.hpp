#pragma once
// The links of the pod's own RDMA ports (internal to src/rules): error counters and MTUs per pod
// (fabric "port errors", "mtu"), and the per-port values the pair checks (rules/pair) compare.

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icheck::rules::node {

// The Active ports KV can leave by: those UCX_NET_DEVICES names, else those of NICs that carry
// traffic (nic_role), else, when no NIC's role is known, every Active port of the pod's HCAs.
std::vector<const probe::IbPort*> kv_ports(const NodeView& v);

// The MTU a port's RDMA traffic runs at, and where it came from.
struct PortMtu {
  std::optional<int> rdma;    // bytes: ibv_devinfo's active_mtu; RoCE: also bounded by the netdev
  std::optional<int> netdev;  // RoCE: the MTU of the netdev its GIDs sit on
  std::string netdev_name;
  std::optional<int> max;  // ibv_devinfo's max_mtu
};
PortMtu port_mtu(const probe::NodeFacts& f, const probe::IbPort& p);

// The RDMA MTU a RoCE netdev MTU allows: the largest of 256..4096 that fits with the RoCE v2
// headers (GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4 bytes: the kernel's iboe_get_mtu).
std::optional<int> roce_rdma_mtu(int netdev_mtu);
// The netdev MTU a 4096-byte RDMA MTU needs (4096 + those 96 bytes of headers).
int roce_mtu_for_4096();

// fabric "port errors" (non-zero link error counters) and "mtu" (a RoCE port below 4096),
// each only when there is something to say.
std::vector<report::Finding> judge_links(const NodeView& v);

}  // namespace icheck::rules::node
