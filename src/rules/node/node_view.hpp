#pragma once
// What every node layer needs to know beyond the raw facts (internal to src/rules): which
// RDMA ports exist, which NICs carry KV traffic, GPU-NIC affinity, the transport env.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "probe/facts.hpp"
#include "report/model.hpp"
#include "rules/node/node.hpp"
#include "util/join.hpp"

namespace icheck::rules::node {

struct NodeView {
  NodeView(const probe::NodeFacts& f, const NodeContext& c) : facts(f), ctx(c) {}
  const probe::NodeFacts& facts;
  const NodeContext& ctx;
  // Devices from the most universal source that saw any: sysfs, else ibstat, else ibv_devinfo.
  const std::vector<probe::IbDevice>* devices = nullptr;
  std::string source;                  // "sysfs", "ibstat", "ibv_devinfo"
  bool affinity_known = false;         // topo -m has GPU and NIC columns (and is not Grace)
  std::set<std::string> gpu_affine;    // NIC names with PIX/PXB to some GPU
  bool grace = false;                  // Grace parts: every GPU-NIC path is SYS by design
  bool mnnvl = false;                  // KV rides multi-node NVLink, not RDMA
  std::optional<std::string> net_devices;  // UCX_NET_DEVICES as set ("all" kept)
  std::set<std::string> nccl_ib_hca;   // NCCL_IB_HCA device names (not the ^ exclusions)
};

NodeView make_view(const probe::NodeFacts& facts, const NodeContext& ctx);

// GPU-affine: the NIC sits under the GPU's PCIe switch (PIX, PXB, PSB), so GPUDirect RDMA
// bypasses the CPU. The one definition for NIC roles and the "nic affinity" finding.
bool close_to_gpu(probe::TopoLinkKind k);
// How far a GPU-NIC cell is: PIX/PSB 0, PXB 1, PHB 2, NODE 3, SYS/SOC 4, anything else 5.
int topo_distance(probe::TopoLinkKind k);

// The RDMA devices from the most universal source that saw any: sysfs, else ibstat, else
// ibv_devinfo. Every reader of "the pod's HCAs" (rules, summary, JSON facts, cross-pod) uses it.
struct RdmaDevices {
  const std::vector<probe::IbDevice>* list;
  std::string source;  // "sysfs", "ibstat", "ibv_devinfo" ("sysfs" when none saw any)
};
RdmaDevices rdma_devices(const probe::NodeFacts& facts);

struct NicRole {
  bool traffic = false;  // carries KV traffic: a down port there blocks transfers
  std::string why;       // "GPU-affine", "named in UCX_NET_DEVICES", "not GPU-affine", ...
};
NicRole nic_role(const NodeView& v, const probe::IbDevice& dev);

bool is_active(const probe::IbPort& p);
std::string port_id(const probe::IbPort& p);  // mlx5_0:1
std::vector<const probe::IbPort*> all_ports(const NodeView& v);
std::vector<std::string> net_device_entries(const NodeView& v);  // empty when unset or all
bool grace_gpu_name(const std::string& name);

// Every GPU row's cell toward each NIC column (NIC rows may be missing from a cut table).
struct GpuNicCell {
  std::string gpu;   // GPU0
  std::string nic;   // resolved device name (legend applied): mlx5_0
  probe::TopoLink link;
};
std::vector<GpuNicCell> gpu_nic_cells(const probe::Topology& t);

std::optional<std::string> env(const probe::NodeFacts& f, std::string_view name);
// The probe's output ended (output cap, lost stdout) before this section was complete: what it
// would have said is unknown, never "absent".
bool cut_before(const probe::NodeFacts& f, const std::string& section);
// The section is missing or cut (the output ended before it or inside it): nothing it would say
// was read, so no finding may call its tool or file absent, nor judge what it cut.
bool not_read(const probe::NodeFacts& f, const std::string& section);
// "<what> not read: the probe output ended before it" (skipped; rerun).
report::Finding not_read_finding(report::Layer layer, std::string name, const std::string& what,
                                 bool required = true);
// HCAs in sysfs that the pod has no uverbs node for (NodeFacts::unallocated_devices).
std::vector<std::string> unallocated_names(const probe::NodeFacts& f);
// Empty when the pod's HCAs are told from the node's (NodeFacts::allocation_known), else why not,
// as a finding says it: "which HCAs are the pod's is unknown (/sys/class/infiniband_verbs is
// absent; 4 uverbs nodes for 9 HCAs)". allocation_next: the command that tells.
std::string allocation_unknown(const probe::NodeFacts& f);
extern const std::string allocation_next;
report::Finding finding(report::Layer layer, std::string name, report::Status status,
                        std::string detail, std::string next = {}, bool required = true);
using icheck::join;
// "mlx5_0..7" for a dense run of one family, else the names joined.
std::string name_range(const std::vector<std::string>& names);
// "mlx5_0..7:1" when every port id has one port number, else name_range of the ids.
std::string port_range(const std::vector<std::string>& port_ids);
std::string format_rate(double gbps);  // 400 -> "400", 2.5 -> "2.5"

}  // namespace icheck::rules::node
