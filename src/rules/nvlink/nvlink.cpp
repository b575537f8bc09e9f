// nvlink: GPU topology as nvidia-smi reports it (its failures show here), NVLink links and
// each GPU's nearest NIC (UCX_NET_DEVICES against them is judged in rules/ucx/net_devices.cpp).
#include "dynamo/transport_vars.hpp"
#include "rules/node/node_layers.hpp"
#include "rules/nvlink/gpu_rails.hpp"

#include <algorithm>
#include <map>

namespace icheck::rules::node {
namespace {

using dynamo::setting;
using probe::NvidiaSmiErrorKind;
using probe::TopoLinkKind;

using report::Layer;
using report::Status;

// nvidia-smi's own failure, when it had one; a missing tool is skipped, a broken driver fails.
std::optional<report::Finding> smi_failure(const NodeView& v) {
  const auto& e = v.facts.nvidia_smi_error;
  switch (e.kind) {
    case NvidiaSmiErrorKind::none: return std::nullopt;
    case NvidiaSmiErrorKind::not_found:
      return finding(Layer::nvlink, "nvidia-smi", Status::skipped,
                     "nvidia-smi not in the image: GPU topology, NVLink and GPU-NIC affinity unknown",
                     "NVIDIA_DRIVER_CAPABILITIES must include utility (the toolkit mounts nvidia-smi), then "
                     "nvidia-smi topo -m");
    case NvidiaSmiErrorKind::no_driver_comm:
      return finding(
          Layer::nvlink, "nvidia-smi", Status::fail,
          "nvidia-smi: couldn't communicate with the NVIDIA driver (driver not loaded on the "
          "node?)",
          "kubectl debug node/<node> -it --image=busybox -- chroot /host nvidia-smi; check the GPU "
          "Operator driver pod");
    case NvidiaSmiErrorKind::version_mismatch:
      return finding(Layer::nvlink, "nvidia-smi", Status::fail, "nvidia-smi: Driver/library version mismatch",
                     "reboot the node (or reload the nvidia modules) so the kernel driver matches its libraries");
    case NvidiaSmiErrorKind::nvml_unknown:
      return finding(Layer::nvlink, "nvidia-smi", Status::fail,
                     "nvidia-smi: Failed to initialize NVML: Unknown Error (the container lost GPU device access)",
                     "restart the pod; on the node set the container runtime's cgroup driver per nvidia-docker #1730");
    case NvidiaSmiErrorKind::no_devices:
      return finding(Layer::nvlink, "nvidia-smi", Status::fail, "nvidia-smi: No devices were found",
                     "resources.limits[\"nvidia.com/gpu\"] on the worker");
    default:
      return finding(Layer::nvlink, "nvidia-smi", Status::fail, "nvidia-smi failed: " + e.text, "nvidia-smi");
  }
}

struct Pairs {
  int total = 0, linked = 0;
  std::map<int, int> counts;       // NV<n> -> pairs
  std::vector<std::string> missing;  // "GPU0-GPU5 (SYS)"
  std::vector<std::string> unknown;  // "GPU0-GPU1 (NV-1)": a cell outside the vocabulary
};

Pairs gpu_pairs(const probe::Topology& t) {
  Pairs out;
  auto gpus = t.gpu_rows();
  for (std::size_t i = 0; i < gpus.size(); ++i)
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      const auto* l = t.link(gpus[i]->label, gpus[j]->label);
      ++out.total;
      if (l && l->kind == TopoLinkKind::nvlink) {
        ++out.linked;
        ++out.counts[l->nvlinks];
      } else {
        auto pair = gpus[i]->label + "-" + gpus[j]->label + " (" + (l ? l->text : "?") + ")";
        (l && l->kind != TopoLinkKind::unknown ? out.missing : out.unknown).push_back(pair);
      }
    }
  return out;
}

// NVLink is expected only where topo shows NV# between GPUs; PCIe parts are never "NVLink down".
report::Finding topology(const probe::Topology& t) {
  auto n = t.gpu_rows().size();
  std::string gpus = std::to_string(n) + " GPU" + (n == 1 ? "" : "s");
  if (n == 0) return finding(Layer::nvlink, "topology", Status::skipped, "nvidia-smi topo -m lists no GPU");
  if (n == 1) return finding(Layer::nvlink, "topology", Status::ok, "1 GPU: no GPU pair to link");
  auto p = gpu_pairs(t);
  if (!p.unknown.empty())  // never "no NVLink" or "NV18 between all" from a cell not understood
    return finding(Layer::nvlink, "topology", Status::warn,
                   "nvidia-smi topo -m cells not understood: " + join(p.unknown) +
                       ": NVLink between these GPUs unknown",
                   "nvidia-smi topo -m; nvidia-smi nvlink -s");
  if (p.linked == 0)
    return finding(Layer::nvlink, "topology", Status::ok, "no NVLink on this part: " + gpus + " talk over PCIe");
  if (p.linked < p.total)
    return finding(Layer::nvlink, "topology", Status::warn,
                   "NVLink on " + std::to_string(p.linked) + "/" + std::to_string(p.total) + " GPU pairs; not " +
                       p.missing.front() + (p.missing.size() > 1 ? " and " + std::to_string(p.missing.size() - 1) + " more" : ""),
                   "nvidia-smi nvlink -s");
  if (p.counts.size() > 1)
    return finding(Layer::nvlink, "topology", Status::warn,
                   "uneven NVLink counts between " + gpus + " (NV" + std::to_string(p.counts.begin()->first) +
                       " to NV" + std::to_string(p.counts.rbegin()->first) + "): some links down?",
                   "nvidia-smi nvlink -s");
  return finding(Layer::nvlink, "topology", Status::ok,
                 "NV" + std::to_string(p.counts.begin()->first) + " between all " + gpus);
}

bool nvlink_expected(const probe::Topology& t) { return gpu_pairs(t).linked > 0; }

std::optional<report::Finding> links(const NodeView& v) {
  if (!v.facts.topo || !nvlink_expected(*v.facts.topo) || !v.facts.nvlink) return std::nullopt;
  const auto& s = *v.facts.nvlink;
  if (s.gpus.empty())
    return finding(Layer::nvlink, "links", Status::warn,
                   "nvidia-smi nvlink -s printed nothing although topo -m shows NVLink", "nvidia-smi nvlink -s");
  std::vector<std::string> dead, partial, unreadable;
  int active = 0, total = 0;
  for (const auto& g : s.gpus) {
    int up = 0;
    for (const auto& l : g.links) {
      up += l.active ? 1 : 0;
      if (l.active && !l.rate_gbs)
        unreadable.push_back("GPU" + std::to_string(g.index) + " link " + std::to_string(l.index) +
                             " '" + l.text + "'");
    }
    active += up;
    total += static_cast<int>(g.links.size());
    std::string name = "GPU" + std::to_string(g.index);
    if (g.all_inactive_message || (!g.links.empty() && up == 0)) dead.push_back(name);
    else if (up < static_cast<int>(g.links.size()))
      partial.push_back(name + " " + std::to_string(up) + "/" + std::to_string(g.links.size()));
  }
  if (!dead.empty())
    return finding(Layer::nvlink, "links", Status::fail, "all NVLinks inactive on " + join(dead),
                   "nvidia-smi nvlink -s; check Fabric Manager (NVSwitch systems) and the node's GPU health");
  if (!partial.empty())
    return finding(Layer::nvlink, "links", Status::warn, "<inactive> NVLinks: " + join(partial) + " active",
                   "nvidia-smi nvlink -e (error counters); nvidia-smi nvlink -s");
  if (!unreadable.empty())
    return finding(Layer::nvlink, "links", Status::warn,
                   "NVLink rate unreadable: " + join(unreadable) + ": not counted as healthy",
                   "nvidia-smi nvlink -s");
  return finding(Layer::nvlink, "links", Status::ok,
                 std::to_string(active) + "/" + std::to_string(total) + " NVLinks active on " +
                     std::to_string(s.gpus.size()) + " GPU" + (s.gpus.size() == 1 ? "" : "s"));
}

// Each GPU's nearest NIC: PIX/PXB lets GPUDirect RDMA bypass the CPU; NODE/SYS crosses it.
std::optional<report::Finding> nic_affinity(const NodeView& v) {
  if (!v.facts.topo) return std::nullopt;
  auto cells = gpu_nic_cells(*v.facts.topo);
  // The pod's own HCAs only: a NIC it cannot open is no GPU's path, however close.
  auto others = unallocated_names(v.facts);
  std::erase_if(cells, [&](const GpuNicCell& c) { return std::find(others.begin(), others.end(), c.nic) != others.end(); });
  if (cells.empty()) return std::nullopt;
  if (v.grace)
    return finding(Layer::nvlink, "nic affinity", Status::ok,
                   "every GPU-NIC path is SYS: normal on Grace (NICs attach to the CPU)");
  std::vector<std::pair<std::string, const GpuNicCell*>> nearest;  // per GPU, in row order
  for (const auto& c : cells) {
    if (nearest.empty() || nearest.back().first != c.gpu) nearest.emplace_back(c.gpu, &c);
    else if (topo_distance(c.link.kind) < topo_distance(nearest.back().second->link.kind))
      nearest.back().second = &c;
  }
  std::vector<std::string> far;
  for (const auto& [gpu, c] : nearest)
    if (!close_to_gpu(c->link.kind)) far.push_back(gpu + "→" + c->nic + " " + c->link.text);
  std::string count = std::to_string(nearest.size() - far.size()) + "/" + std::to_string(nearest.size()) +
                      " GPUs have a PIX/PXB NIC";
  // A NIC the pod may not own is no GPU's path: counted over the node's NICs, it is not a pass.
  if (auto unknown = allocation_unknown(v.facts); far.empty() && !unknown.empty())
    return finding(Layer::nvlink, "nic affinity", Status::warn,
                   count + " among the node's NICs; " + unknown, allocation_next, false);
  if (far.empty()) return finding(Layer::nvlink, "nic affinity", Status::ok, count);
  return finding(Layer::nvlink, "nic affinity", Status::warn,
                 count + "; nearest NIC crosses the CPU for " + join(far), {}, false);
}

// Multi-node NVLink carries KV only if the GPUs have NVLink at all.
std::optional<report::Finding> mnnvl(const NodeView& v) {
  if (!v.mnnvl) return std::nullopt;
  std::string why = setting(dynamo::kUcxCudaIpcMnnvlVar, "y") + " and no RDMA transport in " +
                    std::string(dynamo::kUcxTlsVar) + ": KV moves over multi-node NVLink";
  if (!v.facts.topo) return finding(Layer::nvlink, "multi-node nvlink", Status::skipped, why + "; topology unknown");
  if (!nvlink_expected(*v.facts.topo))
    return finding(Layer::nvlink, "multi-node nvlink", Status::fail,
                   why + ", but these GPUs have no NVLink",
                   "drop " + std::string(dynamo::kUcxCudaIpcMnnvlVar) + " and give " +
                       std::string(dynamo::kUcxTlsVar) + " an RDMA transport (rc)");
  return finding(Layer::nvlink, "multi-node nvlink", Status::ok, why);
}

}  // namespace

std::vector<report::Finding> judge_nvlink(const NodeView& v) {
  std::vector<report::Finding> out;
  if (auto f = smi_failure(v)) out.push_back(*f);
  else if (v.facts.topo) out.push_back(topology(*v.facts.topo));
  else if (not_read(v.facts, "nvidia_smi_topo"))
    out.push_back(not_read_finding(Layer::nvlink, "topology", "nvidia-smi topo -m"));
  else out.push_back(finding(Layer::nvlink, "topology", Status::skipped, "nvidia-smi topo -m gave no output",
                             "nvidia-smi topo -m"));
  if (auto f = links(v)) out.push_back(*f);
  if (auto f = nic_affinity(v)) out.push_back(*f);
  if (auto f = gpu_rails(v))
    out.push_back(*f);
  if (auto f = mnnvl(v))
    out.push_back(*f);
  return out;
}

}  // namespace icheck::rules::node
