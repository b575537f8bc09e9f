#pragma once
// Typed facts read inside one target (pod or local machine) by the node probe.
// Parsers fill them from raw text; rules (src/rules) judge them. Every optional / "found"
// flag exists so a rule can tell "could not see" (skipped) from "saw a bad value" (fail).

#include "probe/fabric/link_facts.hpp"
#include "probe/gpudirect/kconfig_facts.hpp"
#include "probe/gpudirect/vm_facts.hpp"
#include "probe/platform/platform_facts.hpp"
#include "probe/rdma_access/limit_facts.hpp"
#include "probe/stack/stack_versions.hpp"
#include "probe/ucx/srq_facts.hpp"
#include "probe/ucx/ucx_lib_facts.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace icheck::probe {

// ---------------------------------------------------------------------------- tool runs

// One tool (or file read) the script attempted, as its section says; a section absent from the
// output (script cut short) has no Tool at all (NodeFacts::tool returns nullptr).
struct Tool {
  bool found = false;       // the command exists in the image (or the file exists)
  bool timed_out = false;   // killed by the script's deadline
  std::optional<int> exit_code;
  bool truncated = false;   // the section had no end marker (output cut)
  std::string output;

  bool succeeded() const { return found && !timed_out && exit_code == 0; }
};

// ---------------------------------------------------------------------------- fabric

enum class PortState { down, init, armed, active, active_defer, nop, unknown };
enum class PhysState {
  no_state_change, sleep, polling, disabled, port_config_training, linkup,
  link_error_recovery, phy_test, unknown
};
// efa: AWS EFA (PCI vendor 0x1d0f), whose sysfs link_layer reads "Unknown" (rdma-core PR #884).
enum class LinkLayer { infiniband, ethernet, efa, unknown };

struct IbPort {
  std::string device;            // e.g. mlx5_0
  int port = 0;                  // 1-based as the kernel numbers them
  PortState state = PortState::unknown;
  std::string state_text;        // raw, e.g. "4: ACTIVE", "Active", "PORT_ACTIVE (4)"
  PhysState phys_state = PhysState::unknown;
  std::string phys_state_text;   // raw, e.g. "5: LinkUp", "LinkUp"
  std::optional<double> rate_gbps;  // 400 from "400 Gb/sec (4X NDR)" or "Rate: 400"
  std::string rate_text;
  // A rate was printed but is no rate ("nan Gb/sec", "-0", "1e400"): never taken as healthy.
  bool rate_unreadable = false;
  LinkLayer link_layer = LinkLayer::unknown;
  std::string link_layer_text;
  std::optional<int> base_lid;   // 65535 = none assigned; 0 on RoCE
  std::optional<int> sm_lid;
  // sysfs ports/N/pkeys/0: the default partition key; 0xffff full, 0x7fff limited membership
  std::optional<unsigned> pkey0;
  std::string netdev;            // from sysfs device/net or ibdev2netdev
  std::optional<bool> netdev_up; // netdev operstate / ibdev2netdev (Up)/(Down)
  // InfiniBand only: the adapter model's lane speed at the port's width (see probe/fabric/adapters.hpp);
  // what a bandwidth judgement should expect of this port. nullopt: model or link layer unknown.
  std::optional<double> expected_gbps;
};

struct IbDevice {
  std::string name;              // mlx5_0, mlx5_bond_0, ibP57247p0s2, erdma_0, ...
  std::string node_type;         // "CA" (ibstat header) or sysfs node_type text
  std::string ca_type;           // "MT4129" (hca_type / CA type / vendor_part_id)
  std::string fw;                // firmware version
  std::string board_id;          // PSID, e.g. MT_0000000838 (sysfs board_id)
  std::string model;             // ConnectX-7, from ca_type (probe/fabric/adapters.hpp); empty if unknown
  std::string node_guid;
  std::string pci_address;       // 0000:1a:00.0 (basename of the device link)
  std::optional<int> numa_node;  // -1 in sysfs means unknown -> nullopt
  std::vector<std::string> netdevs;
  std::vector<IbPort> ports;
};

// ibstat / sysfs / ibv_devinfo all produce devices; the tools may also end badly.
struct IbDevices {
  std::vector<IbDevice> devices;
  std::string error;             // e.g. the ibpanic line; empty when none
};

// What libibverbs (ibv_devinfo / ibv_devices) reports.
enum class VerbsError {
  none,
  no_provider,         // "no userspace device-specific driver found"
  no_config_dir,       // "couldn't open config directory '/etc/libibverbs.d'"
  abi_mismatch,        // "Driver X does not support the kernel ABI of N"
  no_devices,          // "No IB devices found" / "0 HCAs found" without a more precise cause
  open_failed,         // "Failed to open device" for every device
  other
};

struct VerbsInfo {
  std::optional<int> device_count;       // devices the tool could list/open
  std::vector<IbDevice> devices;         // with ports where the tool printed them
  int failed_devices = 0;  // "Failed to open device" lines (the tool does not name them)
  VerbsError error = VerbsError::none;
  std::string error_text;                // the first line that explains the error
};

// One populated entry of a RoCE port's GID table (ports/N/gids/I + gid_attrs/{types,ndevs}/I).
struct RoceGid {
  std::string device;            // mlx5_0
  int port = 0;
  int index = 0;                 // what UCX_IB_GID_INDEX / NCCL_IB_GID_INDEX name
  std::string gid;               // 0000:0000:0000:0000:0000:ffff:0a00:0001
  std::string netdev;            // gid_attrs/ndevs/I; empty when unreadable
  std::string version;           // "v1" (types/I "IB/RoCE v1") or "v2" ("RoCE v2"); empty: unreadable

  bool v2() const { return version == "v2"; }
  bool ipv4() const { return gid.starts_with("0000:0000:0000:0000:0000:ffff:"); }
  bool link_local() const { return gid.starts_with("fe80:"); }
};

// The addresses of the pod's own network namespace (the pod_addrs section), which tell the pod's
// netdev from a host netdev of the same name. nullopt: that file was not read.
struct PodAddresses {
  std::optional<std::set<std::string>> ipv4;  // dotted, the namespace's local addresses
  std::optional<std::set<std::string>> ipv6;  // "NAME HEX32" (if_inet6 rows)
  std::map<std::string, std::string> macs;    // netdev -> "08:c0:eb:79:39:1a"
};

// ---------------------------------------------------------------------------- rdma access
// LimitValue, Memlock: probe/rdma_access/limit_facts.hpp

// ---------------------------------------------------------------------------- gpudirect

struct KernelModule {
  std::string name;
  std::uint64_t size = 0;
  std::optional<int> refcount;
  std::vector<std::string> used_by;
  std::string state;             // Live / Loading / Unloading (/proc/modules only)
};

struct PeerMemory {
  std::optional<std::string> nv_mem_version;  // /sys/kernel/mm/memory_peers/nv_mem/version
  bool nvidia_peermem = false;   // /sys/module/nvidia_peermem or module list
  bool nv_peer_mem = false;      // legacy MLNX module
};

struct NvidiaDriver {
  bool present = false;          // /proc/driver/nvidia/version readable
  bool open_kernel_module = false;  // "Open Kernel Module" in the NVRM line
  std::string version;           // 550.54.14
  std::string raw;               // the NVRM line
};

struct Gdrcopy {
  bool dev_gdrdrv = false;                // /dev/gdrdrv exists
  std::optional<int> proc_devices_major;  // "509 gdrdrv" in /proc/devices
  bool module = false;                 // gdrdrv in /proc/modules, lsmod or /sys/module
};

// ---------------------------------------------------------------------------- gpus, nvlink

struct MigDevice {
  std::string profile;           // "1g.20gb"
  int device = 0;
  std::string uuid;
};

struct Gpu {
  int index = 0;
  std::string name;              // NVIDIA H100 80GB HBM3
  std::string uuid;
  std::vector<MigDevice> migs;
};

// One cell of `nvidia-smi topo -m`.
enum class TopoLinkKind { self, nvlink, pix, pxb, phb, node, sys, soc, psb, unknown };
struct TopoLink {
  TopoLinkKind kind = TopoLinkKind::unknown;
  int nvlinks = 0;               // n of NV<n>
  std::string text;              // raw cell, trimmed
};

struct TopoRow {
  std::string label;             // column/row label as printed: GPU0, NIC3, mlx5_2
  std::string name;              // resolved: GPU0, or the NIC's device name via the legend
  bool is_gpu = false;
  std::vector<TopoLink> links;   // one per column of Topology::columns
  std::string cpu_affinity;      // raw ("48-63,176-191", "", "N/A"); GPU rows only
  std::string numa_affinity;     // raw ("1", "0,3-9", "N/A", "")
  std::string gpu_numa_id;       // raw ("N/A", "2"); empty when the column is absent
};

struct Topology {
  std::vector<std::string> columns;          // device labels in header order
  std::vector<TopoRow> rows;
  std::map<std::string, std::string> nic_legend;  // NIC0 -> mlx5_1 (empty for old headers)
  bool has_numa_affinity = false;
  bool has_gpu_numa_id = false;
  bool legacy_soc = false;                   // old legend / SOC cells
  std::string error;                         // nothing parsable

  const TopoRow* row(const std::string& label_or_name) const;
  // The cell between two devices (labels or resolved names); nullptr when unknown.
  const TopoLink* link(const std::string& from, const std::string& to) const;
  std::vector<const TopoRow*> gpu_rows() const;
  std::vector<const TopoRow*> nic_rows() const;
};

struct NvlinkLink {
  int index = 0;
  bool active = false;
  std::optional<double> rate_gbs;  // GB/s as printed
  std::string text;
};

struct NvlinkGpu {
  int index = 0;
  std::string name;
  std::string uuid;
  std::vector<NvlinkLink> links;
  bool all_inactive_message = false;  // "Unable to retrieve NVLink information as all links are inactive"
};

struct NvlinkStatus {
  std::vector<NvlinkGpu> gpus;
  bool empty = false;            // no output at all: no NVLink on this part
};

enum class NvidiaSmiErrorKind {
  none, not_found, no_driver_comm, version_mismatch, nvml_unknown, no_devices, other
};
struct NvidiaSmiError {
  NvidiaSmiErrorKind kind = NvidiaSmiErrorKind::none;
  std::string text;              // the line that says it
};

// ---------------------------------------------------------------------------- ucx

struct UcxVersion {
  std::string version;           // 1.16.0
  std::string revision;          // git revision
  std::string configured_with;   // raw configure line
  bool with_cuda = false;        // --with-cuda=... in configured_with
  bool with_gdrcopy = false;
  std::string library_path;  // "Library path:" (libucs the tool loaded)
  // Thread support (configure --enable-mt; off by default, NIXL needs it): from the configure
  // line, else from an HPC-X library path (ucx/mt/ is its thread-enabled build, ucx/lib/ not);
  // nullopt where neither says.
  std::optional<bool> enable_mt;
};

struct UcxTransport {
  std::string transport;         // rc_mlx5, tcp, cuda_ipc
  std::string device;            // mlx5_0:1, eth0, cuda, memory, posix
  std::string type;              // network | intra-node | accelerator | loopback | "" (old)
  std::string memory_domain;     // the md it was listed under
};

struct UcxMemoryDomain {
  std::string name;              // mlx5_0, cuda_cpy, ib/mlx5_0 (old)
  std::string component;         // ib, cuda_cpy, posix, ...
  std::vector<std::string> memory_types;  // host, cuda, cuda-managed, ...
  bool dmabuf = false;           // "dmabuf" on the register line
  bool no_devices = false;       // "< no supported devices found >"
  bool failed_to_open = false;   // "< failed to open memory domain ... >"
};

struct UcxDevices {
  std::vector<UcxMemoryDomain> memory_domains;
  std::vector<UcxTransport> transports;
  std::vector<std::string> connection_managers;  // rdmacm, tcp
  bool old_layout = false;
};

// ---------------------------------------------------------------------------- node

struct NodeFacts {
  std::string hostname;
  std::string kernel;                         // uname -r

  // fabric (sysfs is primary; ibstat and ibv_devinfo corroborate)
  bool sysfs_infiniband = false;              // /sys/class/infiniband exists
  std::vector<IbDevice> sysfs_devices;
  IbDevices ibstat;
  VerbsInfo verbs;                            // ibv_devinfo
  std::optional<int> ibv_devices_count;       // ibv_devices list length
  // Allocation: a pod sees every HCA in sysfs but opens only those whose uverbsN node its device
  // plugin mounted. When /sys/class/infiniband_verbs/uverbsN/ibdev maps the pod's nodes to HCAs,
  // sysfs_devices keeps the pod's HCAs and the others move to unallocated_devices (shown, never
  // judged as the pod's). Without that map (or without any uverbs node) nothing is moved.
  std::map<std::string, std::string> uverbs_ibdev;  // uverbs0 -> mlx5_0, every node in sysfs
  std::vector<IbDevice> unallocated_devices;
  // False when the pod has some uverbs nodes, fewer than the node's HCAs, and the map above was
  // not read or names none of them: sysfs_devices then holds HCAs the pod cannot open, and a
  // finding that depends on which HCA is the pod's says so rather than judging the node's.
  bool allocation_known = true;
  // RoCE addressing: populated GID entries of Ethernet ports, and the netdevs of the pod's own
  // network namespace (/sys/class/net); nullopt: the probe did not read them.
  std::vector<RoceGid> roce_gids;
  // The last GID index the probe read per port ("mlx5_0:1" -> 19): it stops after 16 unused
  // entries in a row, so an index past this is unknown, not empty.
  std::map<std::string, int> roce_gids_scanned;
  std::optional<std::vector<std::string>> pod_netdevs;
  PodAddresses pod_addrs;

  // rdma access
  bool dev_infiniband_present = false;        // the directory exists
  std::vector<std::string> dev_infiniband;    // uverbs0, rdma_cm, umad0, ...
  Memlock memlock;
  std::optional<std::uint64_t> cap_eff;       // CapEff mask
  std::optional<bool> cap_ipc_lock;           // bit 14 of CapEff

  // gpudirect
  PeerMemory peer_memory;
  std::vector<KernelModule> modules;          // relevant ones from /proc/modules (or lsmod)
  NvidiaDriver nvidia_driver;
  Gdrcopy gdrcopy;

  // gpus / nvlink
  std::vector<Gpu> gpus;                      // nvidia-smi -L
  std::optional<Topology> topo;               // nvidia-smi topo -m
  std::optional<NvlinkStatus> nvlink;         // nvidia-smi nvlink -s
  NvidiaSmiError nvidia_smi_error;            // the first nvidia-smi failure seen

  // ucx
  std::optional<UcxVersion> ucx_version;
  std::optional<UcxDevices> ucx_devices;
  SrqFacts srq;  // ibv_devinfo -v max_srq per device (probe/ucx)
  // Without ucx_info: the image's own libucp asked through python3 ctypes (probe/ucx); when it
  // answered, ucx_version and ucx_devices above come from it and ucx_source says so.
  UcxLibFacts ucx_lib;
  std::string ucx_source;  // "ucx_info" | UcxLibFacts::where() | "" (neither answered)

  // UCX_*, NCCL_*, NIXL_* only; values already passed through outside::shown_value.
  std::map<std::string, std::string> transport_env;
  // The container's whole environment (section stack_env), read once here; nullopt where it was
  // not read (then only transport_env is known). With script_complete, a variable it lacks is
  // unset.
  std::optional<std::map<std::string, std::string>> whole_env;
  // The KV stack's versions (wheels' dist-info, libnccl/libcudart names, pkg-config, CUDA's
  // version.json, the kernel, fi_info --version); stack.read is false where they were not read.
  StackVersions stack;
  // /proc/modules was read: without it no module's absence is known.
  bool modules_read = false;

  // Every section by name (e.g. "ibstat", "nvidia_smi_topo"), for skipped/failed reasons.
  std::map<std::string, Tool> tools;
  bool script_complete = false;               // the final "done" marker was seen

  // IMEX/GPU fabric, PCIe, IOMMU/ACS, EFA, the KV worker's limits (node_script_platform.cpp)
  PlatformFacts platform;
  // Error counters, MTUs, IB subnet prefixes of the ports (probe/fabric/link_facts.hpp)
  LinkFacts link;
  // DMI and CPU-flag markers of a virtual machine (probe/gpudirect/vm_facts.hpp)
  VmMarkers vm;
  // The running kernel's GPUDirect-related build options (probe/gpudirect/kconfig_facts.hpp)
  KernelConfig kernel_config;

  const Tool* tool(const std::string& name) const;
  // The pod's /dev/infiniband/uverbs* nodes: one per HCA it can open.
  std::size_t uverbs_nodes() const;
};

}  // namespace icheck::probe
