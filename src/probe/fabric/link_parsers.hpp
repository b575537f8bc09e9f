#pragma once
// Parsers for the link facts (probe/fabric/link_facts.hpp) and the step that fills
// NodeFacts::link from the probe's sections. Pure: text in, facts out.

#include "probe/facts.hpp"

#include <map>
#include <string>
#include <string_view>

namespace icheck::probe {

// The ib_links section: `==> <dev>/ports/<n>/counters/<name> <==` (or hw_counters/) and
// `==> <dev>/ports/<n>/gids/0 <==` blocks, each followed by the file's content, as gpud's
// sysfs captures and the node probe print them. Keyed "mlx5_0:1".
std::map<std::string, PortLink> parse_ib_links(std::string_view out);
// ibv_devinfo's per-port "max_mtu: 4096 (5)" / "active_mtu: 1024 (3)" lines, keyed "dev:port".
std::map<std::string, PortLink> parse_verbs_mtu(std::string_view out);
// The net_mtu section: "NAME MTU" per netdev of the pod's network namespace.
std::map<std::string, int> parse_net_mtu(std::string_view out);

// After the fabric sections: fills f.link from ib_links, net_mtu and ibv_devinfo.
void read_link(NodeFacts& f);

}  // namespace icheck::probe
