// fabric: what a port's state does not show. Link error counters that grew (a bad cable,
// transceiver or NIC: retries, stalls and, on a marginal link, silent KV corruption) and RoCE
// ports whose netdev MTU holds the RDMA MTU below 4096 (NCCL #1957 hangs on a 1500-byte MTU).
#include "rules/fabric/link_rules.hpp"

#include "rules/node/node_layers.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace icheck::rules::node {
namespace {

using probe::IbPort;
using probe::LinkLayer;
using report::Layer;
using report::Status;

// The counters that count physical-link faults (the IB PortCounters the kernel exports).
constexpr std::array<const char*, 6> kLinkFaults = {"link_downed",
                                                    "symbol_error",
                                                    "port_rcv_errors",
                                                    "link_error_recovery",
                                                    "local_link_integrity_errors",
                                                    "excessive_buffer_overrun_errors"};

constexpr int kRoceHeaders = 40 + 8 + 12 + 4 + 28 + 4;

std::string counts_of(const probe::PortLink& link) {
  std::vector<std::string> counts;
  for (const char* name : kLinkFaults)
    if (auto it = link.counters.find(name); it != link.counters.end() && it->second > 0)
      counts.push_back(std::string(name) + " " + std::to_string(it->second));
  return join(counts);
}

std::optional<report::Finding> port_errors(const NodeView& v) {
  std::vector<std::string> bad;
  for (const auto* p : all_ports(v)) {
    auto it = v.facts.link.ports.find(port_id(*p));
    if (it == v.facts.link.ports.end())
      continue;
    if (auto counts = counts_of(it->second); !counts.empty())
      bad.push_back(port_id(*p) + " " + counts);
  }
  if (bad.empty())
    return std::nullopt;
  return finding(Layer::fabric, "port errors", Status::warn,
                 "link error counters not zero: " + join(bad, "; ") +
                     " (cumulative since boot or the last reset; a bad cable, transceiver or NIC "
                     "gives retries, stalls and intermittent KV transfer errors)",
                 "on the node, read them twice a minute apart: grep . "
                 "/sys/class/infiniband/*/ports/*/counters/"
                 "{symbol_error,link_downed,port_rcv_errors}; if they grow, reseat or replace that "
                 "port's cable or transceiver");
}

// The netdev a RoCE port's GIDs sit on (a RoCE v2 one first), else its own, when the pod's
// namespace has it and its MTU was read.
std::string netdev_of(const probe::NodeFacts& f, const IbPort& p) {
  const auto& mtus = f.link.netdev_mtu;
  for (bool v2_only : {true, false})
    for (const auto& g : f.roce_gids)
      if (g.device == p.device && g.port == p.port && (!v2_only || g.v2()) && mtus.count(g.netdev))
        return g.netdev;
  return !p.netdev.empty() && mtus.count(p.netdev) ? p.netdev : std::string();
}

// "RDMA MTU 1024 of 4096": ports that say the same (and sit on one netdev MTU) are grouped.
std::string mtu_text(const PortMtu& m) {
  std::string t = "RDMA MTU " + std::to_string(*m.rdma);
  if (m.max)
    t += " of " + std::to_string(*m.max);
  return t;
}

struct LowMtu {
  std::vector<std::string> ports, netdevs;
};

std::optional<report::Finding> roce_mtu(const NodeView& v) {
  std::map<std::pair<std::string, std::optional<int>>, LowMtu> low;  // (RDMA MTU, netdev MTU)
  for (const auto* p : kv_ports(v)) {
    if (p->link_layer != LinkLayer::ethernet)
      continue;
    auto m = port_mtu(v.facts, *p);
    if (!m.rdma || *m.rdma >= (m.max ? *m.max : 4096))
      continue;
    auto& group = low[{mtu_text(m), m.netdev}];
    group.ports.push_back(port_id(*p));
    if (m.netdev)
      group.netdevs.push_back(m.netdev_name);
  }
  if (low.empty())
    return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& [key, group] : low)
    parts.push_back(key.first + " on " + port_range(group.ports) +
                    (key.second ? " (netdev MTU " + std::to_string(*key.second) + ": " +
                                      name_range(group.netdevs) + ")"
                                : ""));
  return finding(
      Layer::fabric, "mtu", Status::warn,
      "RoCE netdev MTU below what RDMA needs: " + join(parts, "; ") +
          ": a 4096-byte RDMA MTU needs a netdev MTU of " + std::to_string(roce_mtu_for_4096()) +
          " or more; peers at a larger MTU hang or drop (NCCL #1524, #1957)",
      "set the RoCE netdevs' MTU to 9000 (or at least " + std::to_string(roce_mtu_for_4096()) +
          ") on every node and switch port: ip link set <netdev> mtu 9000, or the mtu of the "
          "SR-IOV/NetworkAttachmentDefinition network");
}

}  // namespace

std::vector<const IbPort*> kv_ports(const NodeView& v) {
  // UCX_NET_DEVICES naming ports: UCX uses those and no others.
  auto entries = net_device_entries(v);
  std::vector<const IbPort*> listed;
  for (const auto* p : all_ports(v))
    if (is_active(*p) && std::find(entries.begin(), entries.end(), port_id(*p)) != entries.end())
      listed.push_back(p);
  if (!listed.empty())
    return listed;
  std::vector<const IbPort*> traffic, active;
  for (const auto& d : *v.devices)
    for (const auto& p : d.ports) {
      if (!is_active(p))
        continue;
      active.push_back(&p);
      if (nic_role(v, d).traffic)
        traffic.push_back(&p);
    }
  return traffic.empty() ? active : traffic;
}

std::optional<int> roce_rdma_mtu(int netdev_mtu) {
  int room = netdev_mtu - kRoceHeaders;
  for (int mtu = 4096; mtu >= 256; mtu /= 2)
    if (room >= mtu)
      return mtu;
  return std::nullopt;
}

int roce_mtu_for_4096() {
  return 4096 + kRoceHeaders;
}

PortMtu port_mtu(const probe::NodeFacts& f, const IbPort& p) {
  PortMtu m;
  if (auto it = f.link.ports.find(port_id(p)); it != f.link.ports.end()) {
    m.rdma = it->second.active_mtu;
    m.max = it->second.max_mtu;
  }
  if (p.link_layer != LinkLayer::ethernet)
    return m;
  m.netdev_name = netdev_of(f, p);
  if (m.netdev_name.empty())
    return m;
  m.netdev = f.link.netdev_mtu.at(m.netdev_name);
  // verbs says what the driver made of the netdev; without it, the kernel's rule does.
  if (!m.rdma)
    m.rdma = roce_rdma_mtu(*m.netdev);
  return m;
}

std::vector<report::Finding> judge_links(const NodeView& v) {
  std::vector<report::Finding> out;
  if (auto f = port_errors(v))
    out.push_back(*f);
  if (auto f = roce_mtu(v))
    out.push_back(*f);
  return out;
}

}  // namespace icheck::rules::node
