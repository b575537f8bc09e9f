#pragma once
// The node probe: one POSIX sh script (busybox ash, dash, bash) run once per target. It only
// reads, bounds every tool, and prints marked sections (see sections.hpp for the grammar).

#include <chrono>
#include <string>
#include <string_view>

namespace icheck::probe {

std::string_view node_probe_script();

// `script` (the node script, with or without the NIXL fragment) bounded in the pod too: its
// watchdog kills it and every process it started `budget` (rounded up to whole seconds) after
// it starts, since a real kubelet keeps an exec's process running when kubectl goes away.
std::string with_deadline(std::string_view script, std::chrono::milliseconds budget);

// `script` with this run's section nonce (letters, digits, '-'; anything else: none), so text
// from the pod that holds marker lines cannot end or start a section (see sections.hpp).
std::string with_nonce(std::string_view script, std::string_view nonce);

// The platform sections (IMEX, GPU fabric, PCIe, IOMMU/ACS, EFA, the KV worker's limits);
// node_probe_script() already holds them.
std::string_view node_platform_fragment();

}  // namespace icheck::probe
