#pragma once
// The node probe: one POSIX sh script (busybox ash, dash, bash) run once per target. It only
// reads, bounds every tool, and prints marked sections (see sections.hpp for the grammar).

#include <string_view>

namespace icheck::probe {

std::string_view node_probe_script();

// The platform sections (IMEX, GPU fabric, PCIe, IOMMU/ACS, EFA, the KV worker's limits);
// node_probe_script() already holds them.
std::string_view node_platform_fragment();

}  // namespace icheck::probe
