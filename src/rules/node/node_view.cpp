#include "rules/node/node_view.hpp"

#include "dynamo/transport_vars.hpp"
#include "rules/env/env_ucx_tls.hpp"
#include "util/text.hpp"
#include "util/truthy.hpp"

#include <algorithm>
#include <cstdio>

namespace icheck::rules::node {

bool close_to_gpu(probe::TopoLinkKind k) {
  using probe::TopoLinkKind;
  return k == TopoLinkKind::pix || k == TopoLinkKind::pxb || k == TopoLinkKind::psb;
}

namespace {

using probe::TopoLinkKind;

// GB200/GB300/GH200 attach every NIC to the Grace CPU: topo prints SYS for all GPU-NIC cells.
// x86 tables print "N/A" in GPU NUMA ID, so a numeric one plus all-SYS marks Grace.
bool all_sys_with_gpu_numa(const probe::Topology& t) {
  bool numeric_numa = false;
  for (const auto* g : t.gpu_rows()) numeric_numa = numeric_numa || text::to_int(g->gpu_numa_id).has_value();
  auto cells = gpu_nic_cells(t);
  if (cells.empty() || !numeric_numa) return false;
  return std::all_of(cells.begin(), cells.end(), [](const GpuNicCell& c) { return c.link.kind == TopoLinkKind::sys; });
}

bool detect_grace(const probe::NodeFacts& f) {
  for (const auto& g : f.gpus)
    if (grace_gpu_name(g.name)) return true;
  if (f.nvlink)
    for (const auto& g : f.nvlink->gpus)
      if (grace_gpu_name(g.name)) return true;
  return f.topo && all_sys_with_gpu_numa(*f.topo);
}

void read_affinity(NodeView& v) {
  const auto& t = v.facts.topo;
  if (!t || v.grace) return;
  auto cells = gpu_nic_cells(*t);
  if (cells.empty()) return;
  v.affinity_known = true;
  for (const auto& c : cells)
    if (close_to_gpu(c.link.kind)) v.gpu_affine.insert(c.nic);
}

std::string device_of(std::string_view entry) {
  auto colon = entry.find(':');
  return std::string(text::trim(entry.substr(0, colon)));
}

std::set<std::string> hca_list(const std::optional<std::string>& value) {
  std::set<std::string> out;
  if (!value) return out;
  auto t = text::trim(*value);
  if (t.starts_with('^')) return out;  // an exclusion list names what does not carry traffic
  if (t.starts_with('=')) t.remove_prefix(1);
  for (auto item : text::split(t, ','))
    if (auto d = device_of(item); !d.empty()) out.insert(d);
  return out;
}

// BlueField DPUs (MT41682/41686/41692) serve the host network, not GPU traffic.
bool bluefield(const probe::IbDevice& d) {
  return d.ca_type == "MT41682" || d.ca_type == "MT41686" || d.ca_type == "MT41692";
}

probe::LinkLayer first_link_layer(const probe::IbDevice& d) {
  return d.ports.empty() ? probe::LinkLayer::unknown : d.ports.front().link_layer;
}

}  // namespace

bool grace_gpu_name(const std::string& name) {
  return text::contains(name, "GH200") || text::contains(name, "GB200") ||
         text::contains(name, "GB300");
}

std::vector<GpuNicCell> gpu_nic_cells(const probe::Topology& t) {
  std::vector<GpuNicCell> out;
  for (const auto* g : t.gpu_rows())
    for (std::size_t i = 0; i < t.columns.size() && i < g->links.size(); ++i) {
      const auto& label = t.columns[i];
      if (label.starts_with("GPU")) continue;
      auto it = t.nic_legend.find(label);
      out.push_back({g->label, it == t.nic_legend.end() ? label : it->second, g->links[i]});
    }
  return out;
}

int topo_distance(probe::TopoLinkKind k) {
  using probe::TopoLinkKind;
  switch (k) {
  case TopoLinkKind::pix:
    return 0;
  case TopoLinkKind::psb:
    return 0;
  case TopoLinkKind::pxb:
    return 1;
  case TopoLinkKind::phb:
    return 2;
  case TopoLinkKind::node:
    return 3;
  case TopoLinkKind::sys:
  case TopoLinkKind::soc:
    return 4;
  default:
    return 5;
  }
}

RdmaDevices rdma_devices(const probe::NodeFacts& f) {
  if (!f.sysfs_devices.empty()) return {&f.sysfs_devices, "sysfs"};
  if (!f.ibstat.devices.empty()) return {&f.ibstat.devices, "ibstat"};
  return {&f.verbs.devices, f.verbs.devices.empty() ? "sysfs" : "ibv_devinfo"};
}

NodeView make_view(const probe::NodeFacts& f, const NodeContext& ctx) {
  NodeView v(f, ctx);
  auto devices = rdma_devices(f);
  v.devices = devices.list;
  v.source = std::move(devices.source);
  v.grace = detect_grace(f);
  read_affinity(v);
  auto mnnvl = env(f, dynamo::kUcxCudaIpcMnnvlVar);
  auto tls = env(f, dynamo::kUcxTlsVar);
  v.mnnvl = mnnvl && truthy(*mnnvl) && tls && !detail::parse_ucx_tls(text::trim(*tls)).rdma;
  v.net_devices = env(f, dynamo::kUcxNetDevicesVar);
  v.nccl_ib_hca = hca_list(env(f, dynamo::kNcclIbHcaVar));
  return v;
}

std::vector<std::string> net_device_entries(const NodeView& v) {
  std::vector<std::string> out;
  if (!v.net_devices || text::trim(*v.net_devices) == "all") return out;
  for (auto item : text::split(*v.net_devices, ','))
    if (auto t = text::trim(item); !t.empty()) out.emplace_back(t);
  return out;
}

NicRole nic_role(const NodeView& v, const probe::IbDevice& dev) {
  for (const auto& e : net_device_entries(v))
    if (device_of(e) == dev.name)
      return {true, "named in " + std::string(dynamo::kUcxNetDevicesVar)};
  if (v.nccl_ib_hca.count(dev.name))
    return {true, "named in " + std::string(dynamo::kNcclIbHcaVar)};
  if (v.affinity_known) {
    if (v.gpu_affine.count(dev.name)) return {true, "GPU-affine"};
    return {false, "not GPU-affine"};
  }
  if (bluefield(dev)) return {false, "BlueField"};
  if (first_link_layer(dev) == probe::LinkLayer::efa)
    return {true, "EFA"};
  // Without a usable topology, InfiniBand ports are taken as compute fabric (NVSentinel's rule).
  if (first_link_layer(dev) == probe::LinkLayer::infiniband) return {true, "InfiniBand"};
  if (v.grace) return {false, "role unknown: on Grace every GPU-NIC path is SYS"};
  return {false, "role unknown without nvidia-smi topo -m"};
}

bool is_active(const probe::IbPort& p) {
  bool up = p.phys_state == probe::PhysState::linkup || p.phys_state == probe::PhysState::unknown;
  return (p.state == probe::PortState::active || p.state == probe::PortState::active_defer) && up;
}

std::string port_id(const probe::IbPort& p) { return p.device + ":" + std::to_string(p.port); }

std::vector<const probe::IbPort*> all_ports(const NodeView& v) {
  std::vector<const probe::IbPort*> out;
  for (const auto& d : *v.devices)
    for (const auto& p : d.ports) out.push_back(&p);
  return out;
}

std::optional<std::string> env(const probe::NodeFacts& f, std::string_view name) {
  auto it = f.transport_env.find(std::string(name));
  if (it == f.transport_env.end()) return std::nullopt;
  return it->second;
}

bool not_read(const probe::NodeFacts& f, const std::string& section) {
  const auto* t = f.tool(section);
  return t == nullptr || t->truncated;
}

report::Finding not_read_finding(report::Layer layer, std::string name, const std::string& what,
                                 bool required) {
  return finding(layer, std::move(name), report::Status::skipped,
                 what + " not read: the probe output ended before it", "rerun the check", required);
}

bool cut_before(const probe::NodeFacts& f, const std::string& section) {
  if (f.script_complete) return false;
  const auto* t = f.tool(section);
  return t == nullptr || t->truncated;
}

std::vector<std::string> unallocated_names(const probe::NodeFacts& f) {
  std::vector<std::string> out;
  for (const auto& d : f.unallocated_devices) out.push_back(d.name);
  return out;
}

namespace {

std::string uverbs_map_problem(const probe::NodeFacts& f) {
  const auto* t = f.tool("uverbs_ibdev");
  if (t == nullptr)
    return "/sys/class/infiniband_verbs was not read";
  if (t->truncated)
    return "the probe's output was cut in /sys/class/infiniband_verbs";
  if (!t->found)
    return "/sys/class/infiniband_verbs is absent";
  if (f.uverbs_ibdev.empty())
    return "/sys/class/infiniband_verbs/*/ibdev unreadable";
  return "/sys/class/infiniband_verbs names none of the pod's uverbs nodes";
}

}  // namespace

// The device number tells the node's uverbs node: minor 192+N is uverbsN (ib_uverbs's base).
const std::string allocation_next =
    "ls -l /dev/infiniband (uverbs minor 192+N is the node's uverbsN), then on the node: "
    "cat /sys/class/infiniband_verbs/uverbsN/ibdev";

std::string allocation_unknown(const probe::NodeFacts& f) {
  if (f.allocation_known)
    return {};
  const auto nodes = f.uverbs_nodes();
  return "which HCAs are the pod's is unknown (" + uverbs_map_problem(f) + "; " +
         std::to_string(nodes) + " uverbs node" + (nodes == 1 ? "" : "s") + " for " +
         std::to_string(rdma_devices(f).list->size()) + " HCAs)";
}

report::Finding finding(report::Layer layer, std::string name, report::Status status, std::string detail,
                        std::string next, bool required) {
  report::Finding out;
  out.name = std::move(name);
  out.layer = layer;
  out.status = status;
  out.detail = std::move(detail);
  out.next = std::move(next);
  out.required = required;
  return out;
}

std::string name_range(const std::vector<std::string>& names) {
  if (names.size() < 3) return join(names);
  // "mlx5_3" -> {"mlx5_", 3}, "uverbs3" -> {"uverbs", 3}.
  auto split_name = [](const std::string& n) -> std::pair<std::string, std::optional<long long>> {
    auto cut = n.find_last_not_of("0123456789");
    if (cut == std::string::npos || cut + 1 == n.size()) return {n, std::nullopt};
    return {n.substr(0, cut + 1), text::to_int(std::string_view(n).substr(cut + 1))};
  };
  auto [family, first] = split_name(names.front());
  if (!first) return join(names);
  for (std::size_t i = 1; i < names.size(); ++i) {
    auto [fam, num] = split_name(names[i]);
    if (fam != family || !num || *num != *first + static_cast<long long>(i)) return join(names);
  }
  return names.front() + ".." + std::to_string(*first + static_cast<long long>(names.size()) - 1);
}

std::string port_range(const std::vector<std::string>& port_ids) {
  std::vector<std::string> devices;
  std::string port;
  for (const auto& id : port_ids) {
    auto colon = id.rfind(':');
    if (colon == std::string::npos || (!port.empty() && id.substr(colon) != port)) return name_range(port_ids);
    port = id.substr(colon);
    devices.push_back(id.substr(0, colon));
  }
  return devices.size() < 3 ? join(port_ids) : name_range(devices) + port;
}

std::string format_rate(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", gbps);
  return buf;
}

}  // namespace icheck::rules::node
