#pragma once
// Facts about the platform around the RDMA devices and GPUs, read by the node probe's platform
// sections: multi-node NVLink (IMEX channels, GPU fabric registration), PCIe link training,
// IOMMU and ACS, AWS EFA, and the limits of the running KV worker process.

#include "probe/rdma_access/limit_facts.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icheck::probe {

// ---------------------------------------------------------------------------- multi-node nvlink

// One GPU's `Fabric` block of `nvidia-smi -q`.
struct GpuFabric {
  std::string gpu;            // the header's PCI address: 00000008:01:00.0
  std::string state;          // Completed, In Progress, Not Started, N/A, Not Supported
  std::string status;         // Success, Insufficient Resources, N/A
  std::string clique_id;      // "2"
  std::string cluster_uuid;   // dc6e40c4-d722-4357-9ba6-5291dd461278
  std::string health_summary; // Healthy, Unhealthy, Not Supported; "" when absent

  bool registered() const; // Completed + Success + a non-zero ClusterUUID
};

struct FabricInfo {
  std::vector<GpuFabric> gpus;
  std::string error; // a top-level line that is not a header (nvidia-smi's own failure)
};

// ---------------------------------------------------------------------------- pcie

struct PciLink {
  std::string kind;                               // nic | gpu
  std::string name;                               // mlx5_0, efa_0, or the GPU's PCI address
  std::string address;                            // 0000:1a:00.0
  std::string vendor;                             // 0x15b3, 0x10de, 0x1d0f
  std::optional<double> speed_gts, max_speed_gts; // 16 from "16.0 GT/s PCIe"
  std::optional<int> width, max_width;            // 16 from "16"
  std::string speed_text, max_speed_text;
  std::string iommu_type; // identity, DMA, DMA-FQ; "" unknown
  // The PCI bridges above the device, root port first ("0000:40:01.1"), from its sysfs path
  // (/sys/devices/pci0000:40/0000:40:01.1/.../0000:45:00.0); path_read false when none was read.
  std::vector<std::string> upstream;
  bool path_read = false;
};

enum class AcsState { unknown, disabled, redirecting };

// A bridge whose ACS control redirects peer-to-peer requests or completions upstream
// (ReqRedir+ or CmpltRedir+; SrcValid+ alone only validates requester IDs).
struct AcsBridge {
  std::string header;   // lspci's line: "40:01.1 PCI bridge: Advanced Micro Devices, ..."
  std::string address;  // 0000:40:01.1 ("" when lspci printed no header above the ACSCtl line)
};

struct Iommu {
  bool cmdline_read = false;
  std::string cmdline_setting;    // iommu=pt, intel_iommu=on, amd_iommu=off, ... (space joined)
  bool class_present = false;     // /sys/class/iommu exists
  std::vector<std::string> units; // dmar0, ivhd0, smmu3.0x...
  AcsState acs = AcsState::unknown;
  std::vector<AcsBridge> acs_redirecting;   // bridges with ReqRedir+ or CmpltRedir+
  std::string acs_why_unknown;              // "lspci not in the image", "config space not readable"
};

// ---------------------------------------------------------------------------- kv worker

struct WorkerProcess {
  int pid = 0;
  std::string module; // dynamo.vllm
  std::string comm;   // python3, sh
  Memlock memlock;
  std::optional<std::uint64_t> cap_eff;
  std::optional<int> uid; // real uid
};

// ---------------------------------------------------------------------------- all of it

struct PlatformFacts {
  bool imex_dir = false;                  // /dev/nvidia-caps-imex-channels exists
  std::vector<std::string> imex_channels; // channel0, ...
  std::vector<std::string> gpu_models;    // /proc/driver/nvidia/gpus/*/information Model
  std::optional<FabricInfo> fabric;       // only where the probe ran nvidia-smi -q

  std::vector<PciLink> pci;
  Iommu iommu;

  std::vector<std::string> efa_devices; // RDMA devices with PCI vendor 0x1d0f
  std::optional<bool> fi_info_efa;      // fi_info -p efa found the provider; nullopt: not run
  std::string fi_info_error;            // its first line when it failed
  bool efa_nv_peermem = false;          // /sys/module/efa_nv_peermem or /proc/modules

  std::vector<WorkerProcess> workers; // processes running a Dynamo backend module
  bool workers_read = false;          // the probe could look (grep present)
};

} // namespace icheck::probe
