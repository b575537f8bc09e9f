#pragma once
// The VM half of the node probe: a POSIX sh fragment placed before the node script's "done"
// marker (it uses the node script's begin/end). Section:
//   vm_markers  "sys_vendor TEXT", "product_name TEXT" (/sys/class/dmi/id) and "cpu_flag
//               hypervisor" or "cpu_flag none" (the first flags line of /proc/cpuinfo)

#include <string_view>

namespace icheck::probe {

std::string_view vm_probe_fragment();

}  // namespace icheck::probe
