#pragma once
// The running kernel's build options that GPUDirect RDMA depends on (the kernel_config section,
// probe/gpudirect/kconfig_script.cpp), and whether a peer-memory client API is there.

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace icheck::probe {

// The options the probe prints (kconfig_script.cpp's kc_filter names the same ones).
inline constexpr std::array<std::string_view, 4> kKernelConfigOptions{
    "CONFIG_PCI_P2PDMA", "CONFIG_DMABUF_MOVE_NOTIFY", "CONFIG_INFINIBAND_USER_MEM",
    "CONFIG_ZONE_DEVICE"};

struct KernelConfig {
  std::string source;  // "/proc/config.gz", "/boot/config-6.8.0-1015-nvidia"; empty: none readable
  bool complete = false;                       // the whole config was read ("read 0")
  std::map<std::string, std::string> options;  // CONFIG_PCI_P2PDMA -> "y" | "m" | "unset" | value
  std::optional<bool> memory_peers;  // /sys/kernel/mm/memory_peers exists; nullopt: not read

  // "y", "m", "unset" (a read config without it, or "# ... is not set"), a value; nullopt where
  // the config was not read whole.
  std::optional<std::string> option(std::string_view name) const;
};

}  // namespace icheck::probe
