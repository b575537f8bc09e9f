#pragma once
// Whether the target runs in a virtual machine (the vm_markers section,
// probe/gpudirect/vm_script.cpp): GPUDirect RDMA between a passed-through GPU and NIC then depends
// on the hypervisor.

#include <optional>
#include <string>
#include <vector>

namespace icheck::probe {

struct VmMarkers {
  std::string sys_vendor;    // /sys/class/dmi/id/sys_vendor ("QEMU", "Microsoft Corporation")
  std::string product_name;  // /sys/class/dmi/id/product_name ("Virtual Machine")
  std::optional<bool>
      hypervisor_flag;  // the `hypervisor` CPU flag (x86 /proc/cpuinfo); nullopt: not read

  // What says "virtual machine", e.g. {"CPU flag hypervisor", "sys_vendor QEMU"}; empty: none.
  std::vector<std::string> markers() const;
};

}  // namespace icheck::probe
