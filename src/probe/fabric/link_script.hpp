#pragma once
// The link half of the node probe: a POSIX sh fragment placed before the node script's "done"
// marker (it uses the node script's begin/end/show_file). Sections:
//   ib_links  `==> DEV/ports/N/counters/NAME <==` (or hw_counters/) blocks with the error
//             counters of every port, and `==> DEV/ports/N/gids/0 <==` of InfiniBand ports
//   net_mtu   "NAME MTU" per netdev of the pod's network namespace (/sys/class/net)

#include <string_view>

namespace icheck::probe {

std::string_view link_probe_fragment();

}  // namespace icheck::probe
