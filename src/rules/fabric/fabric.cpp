// fabric: HCAs present, ports Active, rate, link layer (sysfs first; ibstat corroborates).
#include <algorithm>
#include <map>

#include "rules/fabric/fabric_pod.hpp"
#include "rules/node/node_layers.hpp"

namespace icheck::rules::node {
namespace {

using probe::IbPort;
using probe::LinkLayer;
using probe::PhysState;
using probe::PortState;
using report::Layer;
using report::Status;

std::string layer_word(LinkLayer l) {
  if (l == LinkLayer::efa)
    return "AWS EFA";
  return l == LinkLayer::infiniband ? "InfiniBand" : l == LinkLayer::ethernet ? "RoCE" : "unknown link layer";
}

const probe::IbDevice* device_of(const NodeView& v, const IbPort& p) {
  for (const auto& d : *v.devices)
    if (d.name == p.device) return &d;
  return nullptr;
}

report::Finding no_hca(const NodeView& v) {
  if (cut_before(v.facts, "sysfs_ib"))
    return finding(Layer::fabric, "hca", Status::skipped,
                   "the probe's output was cut before /sys/class/infiniband was read: RDMA devices unknown",
                   "rerun the check; if the output is cut again, see the probe finding above");
  std::string where = v.facts.sysfs_infiniband ? "/sys/class/infiniband is empty"
                                               : "/sys/class/infiniband is absent";
  std::string detail = "no RDMA device: " + where + " (no HCA, or its kernel driver is not loaded)";
  std::string next = v.ctx.local ? "ls /sys/class/infiniband; lsmod | grep -E 'mlx5_ib|ib_core'"
                                 : "kubectl debug node/<node> -it --image=busybox -- ls /host/sys/class/infiniband";
  return finding(Layer::fabric, "hca", Status::fail, detail + ": KV transfers would fall back to TCP", next);
}

// Down while the physical link is up: the link trained (cable and switch port work), but nothing
// configured the port: on InfiniBand no subnet manager manages it, or it is an SR-IOV VF the SM
// has not activated (Mellanox/network-operator #249: a VF in a pod, State Down, LinkUp, lid 65535).
bool down_link_up(const IbPort& p) { return p.state == PortState::down && p.phys_state == PhysState::linkup; }

std::string down_link_up_text(const IbPort& p) {
  if (p.link_layer == LinkLayer::ethernet)
    return "Down with the physical link up: not the cable; the RoCE netdev" +
           (p.netdev.empty() ? std::string() : " " + p.netdev) + " is down or the VF is not configured";
  return "Down with the physical link up: not the cable; no subnet manager configured this port (none on this "
         "fabric, or an SR-IOV VF it has not activated)";
}

std::string port_next(const IbPort& p) {
  std::string id = p.device + " " + std::to_string(p.port);
  if (down_link_up(p) && p.link_layer == LinkLayer::ethernet)
    return "on the node: ip link show " + (p.netdev.empty() ? std::string("<netdev of ") + p.device + ">" : p.netdev) +
           " (bring it up; for a VF: configure it on its PF)";
  if (down_link_up(p))
    return "on the node: sminfo -C " + p.device + " -P " + std::to_string(p.port) +
           " (no answer: start opensm/UFM for this fabric); an SR-IOV VF also needs its GUIDs set on the PF "
           "(ip link set <pf> vf <n> node_guid <guid> port_guid <guid>) before the SM activates it";
  return "on the node: ibstat " + id + "; check the cable and the switch port";
}

// Why a port is not Active, in the words an operator acts on.
std::string port_problem(const IbPort& p) {
  if (p.state == PortState::init || p.state == PortState::armed)
    return "waiting for the subnet manager (is opensm / UFM running on this fabric?)";
  if (down_link_up(p)) return down_link_up_text(p);
  if (p.phys_state == PhysState::polling) return "Polling: no link partner (cable, transceiver or switch port)";
  if (p.phys_state == PhysState::disabled) return "Disabled: the port is administratively down";
  if (p.state == PortState::down) return "Down";
  return "not Active";
}

std::string port_text(const IbPort& p) {
  auto s = p.state_text.empty() ? std::string("?") : p.state_text;
  auto ph = p.phys_state_text.empty() ? std::string("?") : p.phys_state_text;
  return port_id(p) + " " + s + "/" + ph;
}

// UCX_NET_DEVICES names this port: UCX is told to carry KV over it, Active or not.
bool listed_for_ucx(const NodeView& v, const IbPort& p) {
  const auto entries = net_device_entries(v);
  return std::find(entries.begin(), entries.end(), port_id(p)) != entries.end();
}

report::Finding judge_port(const NodeView& v, const IbPort& p) {
  const auto* dev = device_of(v, p);
  auto role = dev ? nic_role(v, *dev) : NicRole{};
  const bool listed = listed_for_ucx(v, p);
  std::string detail = port_text(p) + ": " + port_problem(p) + " (" + role.why + ")";
  // Waiting for the subnet manager may pass by itself, unless UCX is pinned to this port: then
  // KV cannot move until it does, and the port state (fabric) is what blocks.
  bool sm_wait = p.state == PortState::init || p.state == PortState::armed;
  Status s = (sm_wait && !listed) || !role.traffic ? Status::warn : Status::fail;
  std::string next = sm_wait ? "sminfo / check the subnet manager; the port turns Active once it is configured"
                             : port_next(p);
  return finding(Layer::fabric, "port " + port_id(p), s, detail, next);
}

// A RoCE port whose netdev is down cannot carry traffic although the IB state says Active.
std::optional<report::Finding> roce_netdev_down(const IbPort& p) {
  if (p.link_layer != LinkLayer::ethernet || p.netdev_up != false) return std::nullopt;
  return finding(Layer::fabric, "port " + port_id(p), Status::warn,
                 port_id(p) + " Active but its netdev " + p.netdev + " is down (RoCE needs the netdev up)",
                 "ip link show " + p.netdev);
}

std::string layers_text(const std::vector<const IbPort*>& active) {
  bool ib = false, eth = false;
  for (const auto* p : active) {
    ib = ib || p->link_layer == LinkLayer::infiniband;
    eth = eth || p->link_layer == LinkLayer::ethernet;
  }
  if (ib && eth) return "InfiniBand and RoCE (link layer Ethernet)";
  if (eth) return "RoCE (link layer Ethernet)";
  return active.empty() ? "" : layer_word(active.front()->link_layer);
}

std::string rates_text(const std::vector<const IbPort*>& active) {
  std::vector<double> rates;
  for (const auto* p : active)
    if (p->rate_gbps && std::find(rates.begin(), rates.end(), *p->rate_gbps) == rates.end())
      rates.push_back(*p->rate_gbps);
  std::sort(rates.rbegin(), rates.rend());
  std::vector<std::string> parts;
  for (double r : rates) parts.push_back(format_rate(r));
  return parts.empty() ? "" : join(parts, "/") + " Gb/s ";
}

report::Finding ports_summary(const NodeView& v, const std::vector<const IbPort*>& ports,
                              const std::vector<const IbPort*>& active) {
  std::string count = std::to_string(active.size()) + "/" + std::to_string(ports.size()) + " ports Active";
  std::string src = v.source == "sysfs" ? "" : " (from " + v.source + "; sysfs unreadable)";
  if (auto others = unallocated_names(v.facts); !others.empty())
    src += "; not allocated to this pod (no uverbs node), not judged: " + name_range(others);
  std::string seen = count + ", " + rates_text(active) + layers_text(active) + src;
  // Judged only where every HCA agrees: the pod's own port may be one that is not Active.
  if (auto unknown = allocation_unknown(v.facts);
      !active.empty() && active.size() < ports.size() && !unknown.empty())
    return finding(Layer::fabric, "ports", Status::warn,
                   seen + "; " + unknown + ": its own may be one that is not Active",
                   allocation_next);
  std::vector<std::string> unreadable;  // a rate nobody can read is not a healthy one
  for (const auto* p : active)
    if (p->rate_unreadable)
      unreadable.push_back(port_id(*p) + " '" + p->rate_text + "'");
  if (!unreadable.empty())
    return finding(Layer::fabric, "ports", Status::warn,
                   seen + "; rate unreadable on " + join(unreadable) + ": not counted as healthy",
                   "on the node: ibstat; cat /sys/class/infiniband/*/ports/*/rate");
  if (!active.empty())
    return finding(Layer::fabric, "ports", Status::ok, seen);
  return finding(Layer::fabric, "ports", Status::fail,
                 count + ": no RDMA port is up, KV transfers would fall back to TCP" + src,
                 "on the node: ibstat; check cables, switch ports and the subnet manager");
}

// Ports of the NICs that carry traffic should all run at one rate; a slower one is a degraded link.
std::optional<report::Finding> mixed_rates(const NodeView& v, const std::vector<const IbPort*>& active) {
  std::map<double, std::vector<std::string>> by_rate;
  for (const auto* p : active) {
    const auto* dev = device_of(v, *p);
    if (dev && nic_role(v, *dev).traffic && p->rate_gbps) by_rate[*p->rate_gbps].push_back(port_id(*p));
  }
  if (by_rate.size() < 2) return std::nullopt;
  std::vector<std::string> parts;
  for (auto it = by_rate.rbegin(); it != by_rate.rend(); ++it)
    parts.push_back(format_rate(it->first) + " Gb/s on " + name_range(it->second));
  return finding(Layer::fabric, "rate", Status::warn,
                 "mixed rates across the GPU-facing NICs: " + join(parts, "; ") + " (degraded link?)",
                 "on the node: ibstat; reseat or replace the slower link's cable/transceiver");
}

// ibstat is corroboration only; when it broke, say so without letting it hide sysfs's answer.
std::optional<report::Finding> ibstat_failure(const NodeView& v) {
  if (v.facts.ibstat.error.empty()) return std::nullopt;
  return finding(Layer::fabric, "ibstat", Status::warn, "ibstat failed: " + v.facts.ibstat.error, {}, false);
}

}  // namespace

std::vector<report::Finding> judge_fabric(const NodeView& v) {
  auto ports = all_ports(v);
  if (ports.empty()) return {no_hca(v)};
  // Cut inside /sys/class/infiniband: "4: ACT" is no port state; nothing after the cut is known.
  if (const auto* t = v.facts.tool("sysfs_ib"); v.source == "sysfs" && t && t->truncated)
    return {finding(Layer::fabric, "ports", Status::skipped,
                    "the probe's output was cut inside /sys/class/infiniband: port states unknown",
                    "rerun the check")};
  std::vector<const IbPort*> active;
  for (const auto* p : ports)
    if (is_active(*p)) active.push_back(p);
  std::vector<report::Finding> out{ports_summary(v, ports, active)};
  for (const auto* p : ports) {
    if (!is_active(*p)) out.push_back(judge_port(v, *p));
    else if (auto f = roce_netdev_down(*p)) out.push_back(*f);
  }
  if (auto f = mixed_rates(v, active)) out.push_back(*f);
  if (auto f = adapter_rate(v, active)) out.push_back(*f);
  if (auto f = ibstat_failure(v)) out.push_back(*f);
  return out;
}

}  // namespace icheck::rules::node
