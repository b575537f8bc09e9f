// Where a RoCE GID lives: the pod's netdev, a host netdev (also one named like the pod's), or
// unconfirmed when the pod's addresses were not read.
#include "rules/fabric/gid_home.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using rules::node::gid_home;
using rules::node::GidHome;

namespace {

probe::RoceGid gid(const std::string& text, const std::string& netdev) {
  return probe::RoceGid{"mlx5_0", 1, 3, text, netdev, "v2"};
}

const std::string ipv4_gid = "0000:0000:0000:0000:0000:ffff:0a3c:0001";  // 10.60.0.1
const std::string ll_gid = "fe80:0000:0000:0000:0ac0:ebff:fe79:3900";    // MAC 08:c0:eb:79:39:00

}  // namespace

TEST_CASE("gid address: IPv4-mapped GID and the EUI-64 link-local of a MAC") {
  CHECK(rules::node::gid_ipv4(gid(ipv4_gid, "eth0")) == "10.60.0.1");
  CHECK(rules::node::gid_ipv4(gid(ll_gid, "eth0")).empty());
  CHECK(rules::node::link_local_of_mac("08:C0:EB:79:39:00") == "fe800000000000000ac0ebfffe793900");
  // The capture's own pair (tests/fixtures/netns/if-inet6-eth0.txt): 02:fc:00:00:00:01.
  CHECK(rules::node::link_local_of_mac("02:fc:00:00:00:01") == "fe8000000000000000fc00fffe000001");
  CHECK(rules::node::link_local_of_mac("08:c0:eb:79:39").empty());
  CHECK(rules::node::link_local_of_mac("zz:c0:eb:79:39:00").empty());
}

TEST_CASE("gid home: name and address together") {
  std::vector<std::string> pod{"lo", "eth0"};
  probe::PodAddresses a;
  a.ipv4 = std::set<std::string>{"127.0.0.1", "10.244.0.9"};
  a.ipv6 = std::set<std::string>{"eth0 fe80000000000000a8bbccfffe000001"};
  a.macs["eth0"] = "aa:bb:cc:00:00:01";
  // The host's eth0 carries the GID: same name, other addresses.
  CHECK(gid_home(pod, a, gid(ipv4_gid, "eth0")) == GidHome::outside);
  CHECK(gid_home(pod, a, gid(ll_gid, "eth0")) == GidHome::outside);
  CHECK(gid_home(pod, a, gid(ipv4_gid, "ens1f0np0")) == GidHome::outside);
  CHECK(gid_home(pod, a, gid(ipv4_gid, "")) == GidHome::outside);
  // The pod's own eth0 has that address / that MAC.
  a.ipv4->insert("10.60.0.1");
  a.macs["eth0"] = "08:c0:eb:79:39:00";
  CHECK(gid_home(pod, a, gid(ipv4_gid, "eth0")) == GidHome::pod);
  CHECK(gid_home(pod, a, gid(ll_gid, "eth0")) == GidHome::pod);
  // Addresses not read: neither side can be claimed.
  probe::PodAddresses unread;
  CHECK(gid_home(pod, unread, gid(ipv4_gid, "eth0")) == GidHome::unconfirmed);
  CHECK(gid_home(pod, unread, gid(ll_gid, "eth0")) == GidHome::unconfirmed);
  // IPv6 off in the pod (if_inet6 read, empty) and no MAC: a link-local GID stays unconfirmed.
  probe::PodAddresses no_v6;
  no_v6.ipv6 = std::set<std::string>{};
  CHECK(gid_home(pod, no_v6, gid(ll_gid, "eth0")) == GidHome::unconfirmed);
}
