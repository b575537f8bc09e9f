#include "rules/fabric/gid_home.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <cstdio>

namespace icheck::rules::node {
namespace {

// The GID as 32 lowercase hex digits, colons dropped (the if_inet6 spelling).
std::string gid_hex(const probe::RoceGid& g) {
  std::string out;
  for (char c : text::lower(g.gid))
    if (c != ':')
      out += c;
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string gid_ipv4(const probe::RoceGid& g) {
  auto hex = gid_hex(g);
  if (!g.ipv4() || hex.size() != 32)
    return {};
  std::string out;
  for (std::size_t i = 24; i < 32; i += 2) {
    int hi = hex_value(hex[i]), lo = hex_value(hex[i + 1]);
    if (hi < 0 || lo < 0)
      return {};
    out += (out.empty() ? "" : ".") + std::to_string(hi * 16 + lo);
  }
  return out;
}

std::string link_local_of_mac(const std::string& mac) {
  auto m = text::lower(mac);
  if (m.size() != 17)
    return {};
  int bytes[6];
  for (int i = 0; i < 6; ++i) {
    int hi = hex_value(m[i * 3]), lo = hex_value(m[i * 3 + 1]);
    if (hi < 0 || lo < 0 || (i < 5 && m[i * 3 + 2] != ':'))
      return {};
    bytes[i] = hi * 16 + lo;
  }
  // EUI-64: the universal/local bit flipped, ff:fe in the middle.
  int eui[8] = {bytes[0] ^ 0x02, bytes[1], bytes[2], 0xff, 0xfe, bytes[3], bytes[4], bytes[5]};
  std::string out = "fe80000000000000";  // fe80::/64
  char two[3];
  for (int b : eui) {
    std::snprintf(two, sizeof two, "%02x", b);
    out += two;
  }
  return out;
}

GidHome gid_home(const std::vector<std::string>& pod_netdevs, const probe::PodAddresses& addrs,
                 const probe::RoceGid& g) {
  if (g.netdev.empty() ||
      std::find(pod_netdevs.begin(), pod_netdevs.end(), g.netdev) == pod_netdevs.end())
    return GidHome::outside;
  if (g.ipv4()) {
    if (!addrs.ipv4)
      return GidHome::unconfirmed;
    return addrs.ipv4->count(gid_ipv4(g)) ? GidHome::pod : GidHome::outside;
  }
  auto hex = gid_hex(g);
  if (addrs.ipv6 && addrs.ipv6->count(g.netdev + " " + hex))
    return GidHome::pod;
  auto mac = addrs.macs.find(g.netdev);
  bool mac_known = mac != addrs.macs.end() && !link_local_of_mac(mac->second).empty();
  if (g.link_local() && mac_known && link_local_of_mac(mac->second) == hex)
    return GidHome::pod;
  // A link-local GID is the netdev's MAC-derived default even where IPv6 is off in the pod, so
  // only both facts together rule it out.
  if (addrs.ipv6 && (!g.link_local() || mac_known))
    return GidHome::outside;
  return GidHome::unconfirmed;
}

}  // namespace icheck::rules::node
