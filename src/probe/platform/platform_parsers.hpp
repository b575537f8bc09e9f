#pragma once
// Parsers of the node probe's platform sections (node_script_platform.cpp). Pure: raw text in,
// typed facts out; partial input yields what could be read.

#include "probe/facts.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace icheck::probe {

// `nvidia-smi -q` (whole, or as the probe filters it): per GPU header, its Fabric block.
FabricInfo parse_nvidia_smi_fabric(std::string_view out);

// "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s" -> GT/s; "Unknown" -> nullopt.
std::optional<double> parse_pcie_speed(std::string_view text);

// `pci KIND NAME ADDRESS` blocks followed by `attribute value` lines (sysfs file names).
std::vector<PciLink> parse_pci_links(std::string_view out);

// `cmdline ...`, `unit NAME`, `class present` lines.
Iommu parse_iommu(std::string_view out);

// `lspci -vvv` (whole, or its device headers and ACSCtl lines): ACS redirecting P2P upstream.
void read_lspci_acs(std::string_view out, Iommu& iommu);

// `fi_info -p efa`: a "provider: efa" entry.
bool fi_info_lists_efa(std::string_view out);

// `==> PID <==` blocks: module, comm, "Max locked memory" line, CapEff and Uid lines.
std::vector<WorkerProcess> parse_kv_workers(std::string_view out);

// Every platform section of a parsed probe into f.platform (the EFA label onto f's ports).
void read_platform(NodeFacts& f);

} // namespace icheck::probe
