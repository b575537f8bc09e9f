#pragma once
// What the node probe reads about each RDMA port's link beyond its state (the ib_links and
// net_mtu sections, probe/fabric/link_script.cpp, plus ibv_devinfo's MTU lines): error
// counters, MTUs, the InfiniBand subnet prefix. NodeFacts::link holds it; rules/fabric judges
// one pod's ports, rules/pair compares a prefill pod's with a decode pod's.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace icheck::probe {

struct PortLink {
  // counters/ (or hw_counters/) file name -> value, cumulative since boot or the last reset.
  std::map<std::string, std::uint64_t> counters;
  // Counter files whose content is no number ("N/A (no PMA)" on iWARP): name -> what they said.
  std::map<std::string, std::string> unreadable;
  std::optional<int> active_mtu;  // bytes, ibv_devinfo's active_mtu ("4096 (5)")
  std::optional<int> max_mtu;
  std::string gid0;  // ports/N/gids/0 of an InfiniBand port: subnet prefix, then port GUID

  // "fe80:0000:0000:0000": the first 64 bits of GID 0; "" when GID 0 was not read.
  std::string subnet_prefix() const;
};

struct LinkFacts {
  std::map<std::string, PortLink> ports;  // "mlx5_0:1" -> what was read about that port
  std::map<std::string, int> netdev_mtu;  // the pod's /sys/class/net/<if>/mtu
  bool counters_read = false;             // the ib_links section ran to its end
  bool netdev_mtu_read = false;           // the net_mtu section ran to its end
};

}  // namespace icheck::probe
