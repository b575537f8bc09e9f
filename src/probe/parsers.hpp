#pragma once
// Pure parsers: raw text of one tool or file in, typed facts out. No I/O, nothing thrown;
// partial or odd input yields what could be read (plus an error text where the facts have one).

#include <string_view>

#include "probe/facts.hpp"

namespace icheck::probe {

// Port vocabulary shared by sysfs, ibstat and ibv_devinfo spellings:
// "4: ACTIVE", "Active", "PORT_ACTIVE (4)"; "5: LinkUp", "LINK_UP (5)", "Phy Test".
PortState parse_port_state(std::string_view text);
PhysState parse_phys_state(std::string_view text);
LinkLayer parse_link_layer(std::string_view text);
std::optional<double> parse_rate_gbps(std::string_view text);  // "400 Gb/sec (4X NDR)", "56"
std::string_view to_string(PortState state);
std::string_view to_string(PhysState state);
std::string_view to_string(LinkLayer layer);

IbDevices parse_ibstat(std::string_view out);
// `==> <dev>/<relpath> <==` blocks followed by the file's content (what the probe script and
// `head` print); relpaths: hca_type, fw_ver, node_guid, node_type, ports/<n>/{state,...},
// device (link target), device/numa_node, device/net (names), device/net/<if>/operstate.
std::vector<IbDevice> parse_sysfs_ib(std::string_view out);
VerbsInfo parse_ibv_devinfo(std::string_view out);
std::optional<int> parse_ibv_devices_count(std::string_view out);  // nullopt: no table seen
// "mlx5_0 port 1 ==> ibp26s0 (Down)" -> ports with device, port, netdev, netdev_up.
std::vector<IbPort> parse_ibdev2netdev(std::string_view out);
// `ls` or `ls -l` of /dev/infiniband: entry names (uverbs0, rdma_cm, by-ibdev, ...).
std::vector<std::string> parse_dev_listing(std::string_view out);

Memlock parse_proc_limits(std::string_view out);              // soft/hard only
std::optional<LimitValue> parse_ulimit_l(std::string_view out);  // "unlimited" | KiB | ulimit -a
std::optional<std::uint64_t> parse_cap_eff(std::string_view proc_status);
bool has_cap_ipc_lock(std::uint64_t cap_eff);

std::vector<KernelModule> parse_proc_modules(std::string_view out);
std::vector<KernelModule> parse_lsmod(std::string_view out);
NvidiaDriver parse_nvidia_driver_version(std::string_view out);  // /proc/driver/nvidia/version
std::optional<int> parse_proc_devices_major(std::string_view out, std::string_view name);

std::vector<Gpu> parse_nvidia_smi_list(std::string_view out);
Topology parse_nvidia_smi_topo(std::string_view out);
NvlinkStatus parse_nvidia_smi_nvlink(std::string_view out);
// exit_code 127 or a shell's "command not found" is not_found; the messages name the others.
NvidiaSmiError classify_nvidia_smi_error(std::string_view out, std::optional<int> exit_code);

UcxVersion parse_ucx_version(std::string_view out);
UcxDevices parse_ucx_devices(std::string_view out);

}  // namespace icheck::probe
