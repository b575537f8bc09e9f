#include "probe/parsers.hpp"
#include "probe/platform/platform_parsers.hpp"
#include "util/text.hpp"

#include <cctype>

namespace icheck::probe {
namespace {

bool all_zero_uuid(std::string_view u) {
  for (char c : u)
    if (c != '0' && c != '-')
      return false;
  return true;
}

void set_fabric_field(GpuFabric& g, std::string_view key, std::string_view value) {
  std::string v(value);
  if (key == "State")
    g.state = v;
  else if (key == "Status")
    g.status = v;
  else if (key == "CliqueId" || key == "Clique ID")
    g.clique_id = v;
  else if (key == "ClusterUUID" || key == "Cluster UUID")
    g.cluster_uuid = v;
  else if (key == "Summary")
    g.health_summary = v;
}

// The log's own top-level lines; any other top-level line is nvidia-smi saying it failed.
bool header_line(std::string_view t) {
  if (t.starts_with("="))
    return true;
  auto kv = text::key_value(t);
  if (!kv)
    return false;
  for (std::string_view k : {"Timestamp", "Driver Version", "CUDA Version", "Attached GPUs"})
    if (kv->first == k)
      return true;
  return false;
}

int indent(std::string_view line) {
  auto at = line.find_first_not_of(" \t");
  return at == std::string_view::npos ? 0 : static_cast<int>(at);
}

} // namespace

bool GpuFabric::registered() const {
  return state == "Completed" && status == "Success" && !cluster_uuid.empty() &&
         !all_zero_uuid(cluster_uuid);
}

FabricInfo parse_nvidia_smi_fabric(std::string_view out) {
  FabricInfo info;
  int fabric_indent = -1; // the "Fabric" line's indent while inside its block
  for (auto line : text::lines(out)) {
    auto t = text::trim(line);
    if (t.empty() || t == "--")
      continue; // "--": grep -C between matches
    int in = indent(line);
    if (t == "Fabric") {
      // A grep excerpt may hold Fabric blocks without their GPU header.
      if (info.gpus.empty() || !info.gpus.back().state.empty())
        info.gpus.emplace_back();
      fabric_indent = in;
      continue;
    }
    if (fabric_indent >= 0 && in <= fabric_indent)
      fabric_indent = -1;
    if (in == 0) {
      if (t.starts_with("GPU "))
        info.gpus.emplace_back().gpu = std::string(text::trim(t.substr(4)));
      else if (info.error.empty() && !header_line(t))
        info.error = std::string(t);
      continue;
    }
    if (fabric_indent < 0 || info.gpus.empty())
      continue;
    if (auto kv = text::key_value(t))
      set_fabric_field(info.gpus.back(), kv->first, kv->second);
  }
  return info;
}

std::optional<double> parse_pcie_speed(std::string_view text) {
  auto t = text::trim(text);
  if (!text::contains(t, "GT/s"))
    return std::nullopt;
  return text::leading_rate(t);
}

namespace {

// "0000:40:01.1": a PCI address with its domain, as sysfs names devices.
bool pci_address(std::string_view w) {
  if (w.size() != 12 || w[4] != ':' || w[7] != ':' || w[10] != '.')
    return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
    if (!std::isxdigit(static_cast<unsigned char>(w[i])))
      return false;
  return true;
}

// The bridges above a device from where its /sys/bus/pci/devices link resolves to; anything
// but /sys/devices/pci... (a copied tree, a container's own files) says nothing about them.
void read_pci_path(std::string_view path, PciLink& l) {
  if (!path.starts_with("/sys/devices/pci"))
    return;
  std::vector<std::string> chain;
  for (auto part : text::split(path, '/'))
    if (pci_address(part))
      chain.emplace_back(part);
  if (chain.empty() || chain.back() != l.address)
    return;
  chain.pop_back();
  l.upstream = std::move(chain);
  l.path_read = true;
}

}  // namespace

std::vector<PciLink> parse_pci_links(std::string_view out) {
  std::vector<PciLink> links;
  for (auto line : text::lines(out)) {
    auto w = text::words(line);
    if (w.size() == 4 && w[0] == "pci") {
      auto& l = links.emplace_back();
      l.kind = std::string(w[1]);
      l.name = std::string(w[2]);
      l.address = std::string(w[3]);
      continue;
    }
    if (links.empty() || w.size() < 2)
      continue;
    auto& l = links.back();
    auto key = w[0];
    auto value = text::trim(line.substr(line.find(key) + key.size()));
    if (key == "vendor")
      l.vendor = text::lower(value);
    else if (key == "current_link_speed") {
      l.speed_text = value;
      l.speed_gts = parse_pcie_speed(value);
    } else if (key == "max_link_speed") {
      l.max_speed_text = value;
      l.max_speed_gts = parse_pcie_speed(value);
    } else if (key == "current_link_width") {
      if (auto v = text::to_int(value))
        l.width = static_cast<int>(*v);
    } else if (key == "max_link_width") {
      if (auto v = text::to_int(value))
        l.max_width = static_cast<int>(*v);
    } else if (key == "iommu_group/type")
      l.iommu_type = value;
    else if (key == "path")
      read_pci_path(value, l);
  }
  return links;
}

Iommu parse_iommu(std::string_view out) {
  Iommu m;
  for (auto line : text::lines(out)) {
    auto w = text::words(line);
    if (w.empty())
      continue;
    if (w[0] == "cmdline") {
      m.cmdline_read = true;
      std::vector<std::string> settings;
      for (auto word : w)
        if (text::contains(word, "iommu"))
          settings.emplace_back(word);
      for (const auto& s : settings)
        m.cmdline_setting += (m.cmdline_setting.empty() ? "" : " ") + s;
    } else if (w[0] == "unit" && w.size() > 1) {
      m.units.emplace_back(w[1]);
    } else if (w[0] == "class") {
      m.class_present = true;
    }
  }
  return m;
}

namespace {

// lspci's header "40:01.1 PCI bridge: ..." (domain 0000 left out) or "0001:40:01.1 ...".
std::string header_address(std::string_view header) {
  auto w = text::words(header);
  if (w.empty())
    return "";
  std::string a(w[0]);
  if (a.size() == 7)
    a = "0000:" + a;
  return pci_address(a) ? text::lower(a) : "";
}

}  // namespace

void read_lspci_acs(std::string_view out, Iommu& iommu) {
  std::string device;
  bool any_acs = false, denied = false;
  for (auto line : text::lines(out)) {
    auto t = text::trim(line);
    if (t.empty())
      continue;
    if (line.front() != ' ' && line.front() != '\t') {
      device = std::string(t);
      continue;
    }
    if (text::contains(t, "access denied"))
      denied = true;
    if (!t.starts_with("ACSCtl:"))
      continue;
    any_acs = true;
    if (text::contains(t, "ReqRedir+") || text::contains(t, "CmpltRedir+"))
      iommu.acs_redirecting.push_back({device, header_address(device)});
  }
  if (!iommu.acs_redirecting.empty())
    iommu.acs = AcsState::redirecting;
  else if (any_acs && !denied)
    iommu.acs = AcsState::disabled;
  else if (denied)
    iommu.acs_why_unknown = "PCI config space not readable (lspci shows <access denied>: not root)";
  else
    iommu.acs_why_unknown = "lspci printed no ACS capability";
}

bool fi_info_lists_efa(std::string_view out) {
  for (auto line : text::lines(out))
    if (auto kv = text::key_value(line); kv && kv->first == "provider" && kv->second == "efa")
      return true;
  return false;
}

std::vector<WorkerProcess> parse_kv_workers(std::string_view out) {
  std::vector<WorkerProcess> workers;
  std::string block;
  auto finish = [&] {
    if (workers.empty())
      return;
    auto& w = workers.back();
    w.memlock = parse_proc_limits(block);
    w.cap_eff = parse_cap_eff(block);
    block.clear();
  };
  for (auto line : text::lines(out)) {
    auto t = text::trim(line);
    if (t.starts_with("==> ") && t.ends_with(" <==")) {
      finish();
      auto pid = text::to_int(t.substr(4, t.size() - 8));
      workers.emplace_back().pid = pid ? static_cast<int>(*pid) : 0;
      continue;
    }
    if (workers.empty())
      continue;
    auto w = text::words(t);
    if (w.size() >= 2 && w[0] == "module")
      workers.back().module = std::string(w[1]);
    else if (w.size() >= 2 && w[0] == "comm")
      workers.back().comm = std::string(w[1]);
    else if (w.size() >= 2 && w[0] == "Uid:") {
      if (auto v = text::to_int(w[1]))
        workers.back().uid = static_cast<int>(*v);
    } else {
      block.append(line).push_back('\n');
    }
  }
  finish();
  return workers;
}

namespace {

bool found(const Tool* t) {
  return t != nullptr && t->found;
}

void read_imex(NodeFacts& f, PlatformFacts& p) {
  if (const Tool* t = f.tool("imex_channels"); found(t)) {
    p.imex_dir = true;
    p.imex_channels = parse_dev_listing(t->output);
  }
  if (const Tool* t = f.tool("nvidia_gpus"); found(t))
    for (auto line : text::lines(t->output))
      if (auto kv = text::key_value(line); kv && kv->first == "Model")
        p.gpu_models.emplace_back(kv->second);
  if (const Tool* t = f.tool("gpu_fabric"); found(t) && !t->timed_out) {
    p.fabric = parse_nvidia_smi_fabric(t->output);
    if (p.fabric->gpus.empty() && p.fabric->error.empty() && t->exit_code != 0)
      p.fabric->error =
          "nvidia-smi -q exited " + (t->exit_code ? std::to_string(*t->exit_code) : "?");
  }
}

// EFA is its own link layer: sysfs says "Unknown", the PCI vendor says Amazon.
void label_efa(NodeFacts& f, PlatformFacts& p) {
  for (const auto& l : p.pci)
    if (l.kind == "nic" && l.vendor == "0x1d0f")
      p.efa_devices.push_back(l.name);
  for (auto& d : f.sysfs_devices) {
    bool efa = false;
    for (const auto& name : p.efa_devices)
      efa = efa || name == d.name;
    if (!efa)
      continue;
    for (auto& port : d.ports)
      if (port.link_layer != LinkLayer::infiniband && port.link_layer != LinkLayer::ethernet)
        port.link_layer = LinkLayer::efa;
  }
}

void read_efa(NodeFacts& f, PlatformFacts& p) {
  label_efa(f, p);
  if (const Tool* t = f.tool("fi_info"); found(t)) {
    p.fi_info_efa = t->succeeded() && fi_info_lists_efa(t->output);
    if (!*p.fi_info_efa)
      for (auto line : text::lines(t->output))
        if (auto tl = text::trim(line); !tl.empty()) {
          p.fi_info_error = std::string(tl);
          break;
        }
  }
  p.efa_nv_peermem = found(f.tool("efa_peermem"));
  for (const auto& m : f.modules)
    p.efa_nv_peermem = p.efa_nv_peermem || m.name == "efa_nv_peermem";
}

} // namespace

void read_platform(NodeFacts& f) {
  auto& p = f.platform;
  read_imex(f, p);
  if (const Tool* t = f.tool("pci_links"); found(t))
    p.pci = parse_pci_links(t->output);
  if (const Tool* t = f.tool("iommu"); found(t))
    p.iommu = parse_iommu(t->output);
  const Tool* lspci = f.tool("lspci_acs");
  if (found(lspci) && !lspci->timed_out)
    read_lspci_acs(lspci->output, p.iommu);
  else
    p.iommu.acs_why_unknown = found(lspci) ? "lspci -vvv timed out"
                                           : "lspci not in the image (ACS needs PCI config space)";
  read_efa(f, p);
  if (const Tool* t = f.tool("kv_worker"); found(t)) {
    p.workers_read = true;
    p.workers = parse_kv_workers(t->output);
  }
}

} // namespace icheck::probe
