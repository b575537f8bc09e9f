// ucx: UCX_NET_DEVICES against the pod's Active, GPU-affine ports. The setting is UCX's, so its
// finding sits in the ucx layer (DESIGN.md: each finding in the layer of the fact it judges);
// the state of a listed port is judged in fabric (fabric.cpp).
#include "dynamo/transport_vars.hpp"
#include "rules/node/node_layers.hpp"

namespace icheck::rules::node {
namespace {

using dynamo::setting;
using report::Layer;
using report::Status;

const std::string kNetDevices(dynamo::kUcxNetDevicesVar);

// UCX matches each entry against its own device names exactly (ucp_context.c,
// ucp_is_resource_in_device_list): an RDMA port is "mlx5_0:1"; a netdev name is its tcp device,
// even the netdev of an RDMA port, and a bare HCA name ("mlx5_0") is no device at all.
const probe::IbPort* find_port(const NodeView& v, const std::string& entry) {
  for (const auto* p : all_ports(v))
    if (port_id(*p) == entry)
      return p;
  return nullptr;
}

const probe::IbPort* port_of_netdev(const NodeView& v, const std::string& entry) {
  for (const auto* p : all_ports(v))
    if (!p->netdev.empty() && p->netdev == entry)
      return p;
  return nullptr;
}

const probe::IbDevice* hca_named(const NodeView& v, const std::string& entry) {
  for (const auto& d : *v.devices)
    if (d.name == entry && !d.ports.empty())
      return &d;
  return nullptr;
}

// The pod's Active ports UCX should use: the GPU-affine ones, or all of them where affinity is
// unknown or meaningless (Grace).
std::string affine_active_ports(const NodeView& v) {
  std::vector<std::string> out;
  for (const auto& d : *v.devices)
    if (!v.affinity_known || v.gpu_affine.count(d.name))
      for (const auto& p : d.ports)
        if (is_active(p))
          out.push_back(port_id(p));
  return join(out, ",");
}

bool rdma_like(const std::string& entry) {
  return entry.find(':') != std::string::npos || entry.starts_with("mlx") ||
         entry.starts_with("ib");
}

// An entry naming an HCA in sysfs that the pod has no uverbs node for.
bool unallocated(const NodeView& v, const std::string& entry) {
  auto dev = entry.substr(0, entry.find(':'));
  for (const auto& d : v.facts.unallocated_devices)
    if (d.name == dev)
      return true;
  return false;
}

// UCX_NET_DEVICES entries sorted by what UCX makes of them.
struct ListedEntries {
  int rdma_ports = 0;  // entries naming a port UCX runs RDMA on
  std::vector<std::string> absent, not_active, not_affine, not_mine, bare, netdevs;
};

void sort_entry(const NodeView& v, const std::string& e, ListedEntries& out) {
  if (const auto* p = find_port(v, e)) {
    ++out.rdma_ports;
    if (!is_active(*p))
      out.not_active.push_back(e + " (" + (p->state_text.empty() ? "?" : p->state_text) + ")");
    else if (v.affinity_known && !v.gpu_affine.count(p->device))
      out.not_affine.push_back(e);
  } else if (unallocated(v, e)) {
    out.not_mine.push_back(e);
  } else if (const auto* d = hca_named(v, e)) {
    out.bare.push_back(e + " (" + port_id(d->ports.front()) + ")");
  } else if (const auto* n = port_of_netdev(v, e)) {
    out.netdevs.push_back(e + " is the netdev of " + port_id(*n) + " (UCX's tcp device there)");
  } else if (rdma_like(e)) {
    out.absent.push_back(e);
  }
}

// Every entry is a tcp netdev or a name UCX does not know: UCX runs no RDMA transport.
std::string no_rdma_port_text(const ListedEntries& l) {
  std::string text =
      "names no RDMA port (UCX names them like mlx5_0:1): UCX uses TCP only, KV falls back";
  if (!l.bare.empty())
    text += "; not UCX device names: " + join(l.bare);
  if (!l.netdevs.empty())
    text += "; " + join(l.netdevs, "; ");
  return text;
}

report::Finding listed_devices(const NodeView& v, const std::vector<std::string>& entries) {
  ListedEntries l;
  for (const auto& e : entries)
    sort_entry(v, e, l);
  std::string value = setting(kNetDevices, *v.net_devices);
  std::string better = affine_active_ports(v);
  std::string next = better.empty() ? "" : setting(kNetDevices, better);
  if (!l.absent.empty() || !l.not_active.empty() || !l.not_mine.empty()) {
    std::vector<std::string> bad;
    if (!l.not_mine.empty())
      bad.push_back("not allocated to this pod (in sysfs, no uverbs node; UCX finds no RDMA device "
                    "there and KV falls back): " +
                    join(l.not_mine));
    if (!l.absent.empty())
      bad.push_back("absent in this pod: " + join(l.absent));
    if (!l.not_active.empty())
      bad.push_back("not Active: " + join(l.not_active));
    return finding(Layer::ucx, kNetDevices, Status::fail, value + ": " + join(bad, "; "), next);
  }
  if (l.rdma_ports == 0)
    return finding(Layer::ucx, kNetDevices, Status::fail, value + ": " + no_rdma_port_text(l),
                   next);
  if (!l.bare.empty())
    return finding(Layer::ucx, kNetDevices, Status::warn,
                   value + ": not UCX device names: " + join(l.bare) + "; UCX skips them", next);
  if (!l.not_affine.empty())
    return finding(Layer::ucx, kNetDevices, Status::warn,
                   value + ": " + join(l.not_affine) + " not GPU-affine (management/storage NIC?)",
                   next);
  if (auto unknown = allocation_unknown(v.facts); !unknown.empty())
    return finding(Layer::ucx, kNetDevices, Status::warn,
                   value + ": every listed port is Active, but " + unknown +
                       ": UCX finds no RDMA device on a listed port the pod cannot open",
                   allocation_next);
  return finding(Layer::ucx, kNetDevices, Status::ok, value + ": every listed port is Active");
}

}  // namespace

// Unset or `all`: UCX also binds management / BlueField NICs (dynamo PR #10852), so name the
// GPU-affine Active ports when others are Active too.
std::optional<report::Finding> judge_net_devices(const NodeView& v) {
  if (all_ports(v).empty())
    return std::nullopt;
  auto entries = net_device_entries(v);
  if (!entries.empty())
    return listed_devices(v, entries);
  std::string value = v.net_devices ? setting(kNetDevices, "all") : kNetDevices + " unset";
  if (!v.affinity_known && v.grace)
    return finding(Layer::ucx, kNetDevices, Status::skipped,
                   value + "; on Grace every GPU-NIC path is SYS, so affinity cannot tell which "
                           "ports UCX should use",
                   "name the compute-fabric ports: " + setting(kNetDevices, affine_active_ports(v)),
                   false);
  if (!v.affinity_known)
    return finding(Layer::ucx, kNetDevices, Status::skipped,
                   value + "; GPU-NIC affinity unknown (no NIC columns in nvidia-smi topo -m), "
                           "cannot tell which ports UCX should use",
                   {}, false);
  std::vector<std::string> others;
  for (const auto& d : *v.devices)
    if (!v.gpu_affine.count(d.name))
      for (const auto& p : d.ports)
        if (is_active(p))
          others.push_back(port_id(p));
  if (others.empty())
    return finding(Layer::ucx, kNetDevices, Status::ok,
                   value + ": every Active port is GPU-affine");
  auto better = affine_active_ports(v);
  return finding(Layer::ucx, kNetDevices, Status::warn,
                 value + ": UCX may also use " + join(others) + " (Active, not GPU-affine)",
                 better.empty() ? "" : setting(kNetDevices, better));
}

}  // namespace icheck::rules::node
