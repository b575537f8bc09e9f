#pragma once
// Parsers for the pod-side fabric facts (which HCAs the pod can open, RoCE GIDs, the pod's
// netdevs) and the step that applies them to NodeFacts. Pure: text in, facts out.

#include "probe/facts.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

// "uverbs0 mlx5_0" lines (the uverbs_ibdev section) -> uverbs0 -> mlx5_0.
std::map<std::string, std::string> parse_uverbs_ibdev(std::string_view out);
// MLNX show_gids rows "DEV PORT INDEX GID [IPv4] VER DEV" (the roce_gids section prints them
// without the IPv4 column); header, separator and "n_gids_found" lines are skipped, "-" is unread.
std::vector<RoceGid> parse_roce_gids(std::string_view out);
// "mlx5_0 1 scanned 19" lines of the same section -> "mlx5_0:1" -> 19.
std::map<std::string, int> parse_roce_gids_scanned(std::string_view out);

// The pod_addrs section: "inet A.B.C.D", "inet6 NAME HEX32", "link NAME MAC", and "inet unread" /
// "inet6 unread". A family is known only when the section is whole and says nothing unread.
PodAddresses parse_pod_addrs(std::string_view out, bool whole);

// After the fabric sections are parsed: moves HCAs without a uverbs node in the pod out of
// sysfs_devices (see NodeFacts::unallocated_devices), names each adapter model and each IB
// port's expected rate, and reads the RoCE GIDs and the pod's netdevs.
void read_pod_fabric(NodeFacts& f);

} // namespace icheck::probe
