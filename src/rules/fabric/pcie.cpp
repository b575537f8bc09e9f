// PCIe health: every GPU-facing NIC and every GPU of the pod trained at its maximum link width
// and speed (fabric for NICs, gpudirect for GPUs), and what sits between GPU and NIC: IOMMU
// translation and ACS redirection make GPUDirect P2P hang or crawl while the rest stays green.
#include "rules/node/node_layers.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <set>

namespace icheck::rules::node {
namespace {

using probe::PciLink;
using report::Layer;
using report::Status;

std::string gen(const std::optional<double>& gts) {
  return gts ? format_rate(*gts) + " GT/s" : "?";
}

std::string trained(const PciLink& l) {
  return "x" + (l.width ? std::to_string(*l.width) : std::string("?")) + " " + gen(l.speed_gts) +
         " of x" + (l.max_width ? std::to_string(*l.max_width) : std::string("?")) + " " +
         gen(l.max_speed_gts);
}

bool narrow(const PciLink& l) {
  return l.width && l.max_width && *l.width < *l.max_width;
}
bool slow(const PciLink& l) {
  return l.speed_gts && l.max_speed_gts && *l.speed_gts < *l.max_speed_gts;
}
bool known(const PciLink& l) {
  return l.width && l.max_width && l.speed_gts && l.max_speed_gts;
}

const probe::IbDevice* rdma_device(const NodeView& v, const std::string& name) {
  for (const auto& d : *v.devices)
    if (d.name == name)
      return &d;
  return nullptr;
}

// "8 GPU-facing NICs at their maximum PCIe link (x16 32 GT/s)": the ok line of either kind.
report::Finding at_maximum(Layer layer, const char* name, const std::string& what,
                           const std::vector<const PciLink*>& links) {
  bool one = links.size() == 1;
  const auto* l = links.front();
  return finding(layer, name, Status::ok,
                 std::to_string(links.size()) + " " + what + (one ? " at its" : "s at their") +
                     " maximum PCIe link (x" + std::to_string(*l->width) + " " + gen(l->speed_gts) + ")");
}

std::optional<report::Finding> nic_links(const NodeView& v) {
  std::vector<const PciLink*> judged;
  std::vector<std::string> low;
  for (const auto& l : v.facts.platform.pci) {
    const auto* dev = l.kind == "nic" ? rdma_device(v, l.name) : nullptr;
    if (dev == nullptr || !known(l) || !nic_role(v, *dev).traffic)
      continue;
    judged.push_back(&l);
    if (narrow(l) || slow(l))
      low.push_back(l.name + " " + trained(l));
  }
  if (judged.empty())
    return std::nullopt;
  if (!low.empty())
    return finding(Layer::fabric, "nic pcie", Status::warn,
                   "NIC PCIe link trained below its maximum: " + join(low, "; ") +
                       " (caps RDMA bandwidth)",
                   "on the node: lspci -vvv -s <address> | grep -E 'LnkCap|LnkSta'; reseat the "
                   "card or check the slot/riser and BIOS PCIe settings");
  return at_maximum(Layer::fabric, "nic pcie", "GPU-facing NIC", judged);
}

const char* gpu_pcie_next =
    "under load: nvidia-smi -q -d PCIE (Link Width/Generation Current vs Max)";

std::optional<report::Finding> gpu_links(const NodeView& v) {
  std::vector<const PciLink*> gpus;
  std::vector<std::string> narrow_ones, slow_ones;
  for (const auto& l : v.facts.platform.pci) {
    if (l.kind != "gpu" || !known(l))
      continue;
    gpus.push_back(&l);
    if (narrow(l))
      narrow_ones.push_back("GPU " + l.address + " " + trained(l));
    else if (slow(l))
      slow_ones.push_back("GPU " + l.address + " " + trained(l));
  }
  if (gpus.empty())
    return std::nullopt;
  if (!narrow_ones.empty())
    return finding(Layer::gpudirect, "gpu pcie", Status::warn,
                   "GPU PCIe link narrower than its maximum: " + join(narrow_ones, "; ") +
                       " (caps GPUDirect RDMA bandwidth)",
                   gpu_pcie_next);
  // An idle GPU drops its PCIe speed to save power (width stays): shown, not judged.
  if (!slow_ones.empty())
    return finding(Layer::gpudirect, "gpu pcie", Status::warn,
                   "GPU PCIe speed below its maximum: " + join(slow_ones, "; ") +
                       " (normal while the GPU idles; a problem if it stays so under load)",
                   gpu_pcie_next, false);
  return at_maximum(Layer::gpudirect, "gpu pcie", "GPU", gpus);
}

const char* iommu_next =
    "boot the node with iommu=pt (or the IOMMU off) as the GPUDirect RDMA guide asks";

std::string device_label(const PciLink& l) {
  return l.kind == "gpu" ? "GPU " + l.address : l.name;
}

report::Finding iommu(const NodeView& v) {
  const auto& m = v.facts.platform.iommu;
  std::vector<std::string> translated, identity;
  for (const auto& l : v.facts.platform.pci) {
    if (l.iommu_type == "identity")
      identity.push_back(device_label(l));
    else if (!l.iommu_type.empty())
      translated.push_back(device_label(l) + " (" + l.iommu_type + ")");
  }
  std::string cmdline =
      m.cmdline_setting.empty() ? "" : "; kernel command line: " + m.cmdline_setting;
  if (!translated.empty())
    return finding(Layer::gpudirect, "iommu", Status::warn,
                   "IOMMU translates DMA for " + join(translated) + cmdline +
                       ": GPUDirect RDMA and P2P can hang or slow down",
                   iommu_next);
  if (!identity.empty())
    return finding(Layer::gpudirect, "iommu", Status::ok,
                   "IOMMU passthrough (identity) for " + name_range(identity));
  bool passthrough = text::contains(m.cmdline_setting, "iommu=pt") ||
                     text::contains(m.cmdline_setting, "passthrough=1");
  if (m.class_present && !m.units.empty() && !passthrough)
    return finding(
        Layer::gpudirect, "iommu", Status::warn,
        "IOMMU enabled (" + name_range(m.units) + ")" + cmdline +
            ", its mode for the GPUs and NICs unread",
        "on the node: cat /sys/bus/pci/devices/<gpu>/iommu_group/type (identity is passthrough)",
        false);
  if (passthrough)
    return finding(Layer::gpudirect, "iommu", Status::ok, "IOMMU passthrough" + cmdline);
  if (m.class_present)
    return finding(Layer::gpudirect, "iommu", Status::ok, "no IOMMU unit active");
  return finding(Layer::gpudirect, "iommu", Status::skipped,
                 "IOMMU state unreadable (no /sys/class/iommu)",
                 "cat /proc/cmdline; ls /sys/class/iommu", false);
}

const char* acs_next =
    "disable ACS on the PCIe switches (BIOS, or setpci as NCCL's troubleshooting guide shows)";

// The bridges a GPU-NIC pair's peer-to-peer traffic crosses: each side's bridges below the
// lowest one they share (where the traffic turns back down). Across root ports nothing is shared.
void add_between(const PciLink& gpu, const PciLink& nic, std::set<std::string>& out) {
  std::size_t common = 0;
  while (common < gpu.upstream.size() && common < nic.upstream.size() &&
         gpu.upstream[common] == nic.upstream[common])
    ++common;
  out.insert(gpu.upstream.begin() + static_cast<std::ptrdiff_t>(common), gpu.upstream.end());
  out.insert(nic.upstream.begin() + static_cast<std::ptrdiff_t>(common), nic.upstream.end());
}

// nullopt when no GPU or no traffic NIC of the pod has its sysfs path read.
std::optional<std::set<std::string>> bridges_between(const NodeView& v) {
  std::vector<const PciLink*> gpus, nics;
  for (const auto& l : v.facts.platform.pci) {
    if (!l.path_read)
      continue;
    if (l.kind == "gpu")
      gpus.push_back(&l);
    else if (const auto* dev = l.kind == "nic" ? rdma_device(v, l.name) : nullptr;
             dev != nullptr && nic_role(v, *dev).traffic)
      nics.push_back(&l);
  }
  if (gpus.empty() || nics.empty())
    return std::nullopt;
  std::set<std::string> between;
  for (const auto* g : gpus)
    for (const auto* n : nics)
      add_between(*g, *n, between);
  return between;
}

std::string bridges_text(const std::vector<std::string>& addresses) {
  auto n = addresses.size();
  return std::to_string(n) + " bridge" + (n == 1 ? "" : "s") +
         (addresses.empty() ? "" : " (" + name_range(addresses) + ")");
}

report::Finding acs_redirecting(const NodeView& v) {
  const auto& redirecting = v.facts.platform.iommu.acs_redirecting;
  auto between = bridges_between(v);
  std::vector<std::string> on_path, elsewhere, unplaced;
  for (const auto& b : redirecting) {
    if (!between || b.address.empty())
      unplaced.push_back(b.address);
    else
      (between->contains(b.address) ? on_path : elsewhere).push_back(b.address);
  }
  const std::string what = "PCIe ACS redirects peer-to-peer requests (ReqRedir+/CmpltRedir+) on ";
  if (!on_path.empty())
    return finding(Layer::gpudirect, "acs", Status::warn,
                   what + bridges_text(on_path) +
                       " between this pod's GPUs and NICs: GPUDirect RDMA goes through the root "
                       "complex (hangs or crawls)",
                   acs_next);
  if (unplaced.empty())
    return finding(Layer::gpudirect, "acs", Status::ok,
                   what + bridges_text(elsewhere) +
                       ", none between this pod's GPUs and NICs (their sysfs paths)");
  // `lspci -vvv | grep ACSCtl` keeps no headers: then only how many.
  bool all_named = std::none_of(unplaced.begin(), unplaced.end(),
                                [](const std::string& a) { return a.empty(); });
  auto n = unplaced.size();
  return finding(Layer::gpudirect, "acs", Status::warn,
                 what +
                     (all_named ? bridges_text(unplaced)
                                : std::to_string(n) + " bridge" + (n == 1 ? "" : "s")) +
                     "; whether they sit between the GPUs and NICs was not read: GPUDirect RDMA "
                     "may go through the root complex (hangs or crawls)",
                 "on the node: lspci -tv (are they above a GPU or NIC of this pod?); " +
                     std::string(acs_next));
}

report::Finding acs(const NodeView& v) {
  const auto& m = v.facts.platform.iommu;
  if (m.acs == probe::AcsState::redirecting)
    return acs_redirecting(v);
  if (m.acs == probe::AcsState::disabled)
    return finding(
        Layer::gpudirect, "acs", Status::ok,
        "PCIe ACS redirection off on every bridge lspci shows (no ReqRedir+/CmpltRedir+)");
  return finding(Layer::gpudirect, "acs", Status::skipped, "ACS unknown: " + m.acs_why_unknown,
                 "on the node as root: lspci -vvv | grep ACSCtl", false);
}

} // namespace

std::vector<report::Finding> judge_pcie_nics(const NodeView& v) {
  std::vector<report::Finding> out;
  if (auto f = nic_links(v))
    out.push_back(*f);
  return out;
}

std::vector<report::Finding> judge_pcie_gpus(const NodeView& v) {
  std::vector<report::Finding> out;
  if (auto f = gpu_links(v))
    out.push_back(*f);
  if (!v.facts.platform.pci.empty() || v.facts.platform.iommu.cmdline_read) {
    out.push_back(iommu(v));
    out.push_back(acs(v));
  }
  return out;
}

} // namespace icheck::rules::node
