#pragma once
// Where a RoCE GID lives, as the pod can tell it. gid_attrs/ndevs prints the netdev's name in
// whatever network namespace it lives in, so a host netdev named like one of the pod's (eth0 on
// both sides) matches by name alone. The GID's own address settles it: an IPv4 GID carries the
// netdev's IPv4 address, a link-local one the netdev's MAC (EUI-64) or its IPv6 link-local
// address; the pod's namespace lists its own (probe::PodAddresses).

#include "probe/facts.hpp"

#include <string>
#include <vector>

namespace icheck::rules::node {

enum class GidHome {
  pod,          // on a netdev of the pod, whose addresses include the GID's
  outside,      // on a netdev the pod does not have, or on a same-named one with other addresses
  unconfirmed,  // on a netdev named like the pod's, but the pod's addresses were not read
};

GidHome gid_home(const std::vector<std::string>& pod_netdevs, const probe::PodAddresses& addrs,
                 const probe::RoceGid& g);

// "0000:0000:0000:0000:0000:ffff:0a3c:0001" -> "10.60.0.1"; empty when not IPv4-mapped.
std::string gid_ipv4(const probe::RoceGid& g);
// "08:c0:eb:79:39:1a" -> "fe800000000000000ac0ebfffe79391a" (the default GID of that netdev);
// empty when the text is not a 6-byte MAC.
std::string link_local_of_mac(const std::string& mac);

}  // namespace icheck::rules::node
