// The link facts (probe/fabric/link_parsers.hpp): error counters and GID 0 from the ib_links
// section, MTUs from ibv_devinfo and the net_mtu section, on real captures.
#include "fixture.hpp"
#include "probe/fabric/link_parsers.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;
using icheck::probe::test::fixture;

TEST_CASE(
    "ib_links: the gpud H100 capture's counters, keyed by port and a real link_downed of 255") {
  auto ports = parse_ib_links(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"));
  REQUIRE(ports.count("mlx5_1:1"));
  CHECK(ports["mlx5_1:1"].counters.at("link_downed") == 255);
  CHECK(ports["mlx5_1:1"].counters.at("port_rcv_errors") == 14);
  CHECK(ports["mlx5_0:1"].counters.at("symbol_error") == 0);
  CHECK(ports["mlx5_bond_0:1"].counters.size() == 3);
  CHECK(ports["mlx5_0:1"].unreadable.empty());
  CHECK(ports.count("mlx5_0:0") == 0);  // hca_type, fw_ver, state... are not counters
}

TEST_CASE("ib_links: an iWARP port's 'N/A (no PMA)' is unreadable, never zero") {
  auto ports =
      parse_ib_links(fixture("sysfs-infiniband/i40iw-iwarp-counters-no-pma-node-exporter966.txt"));
  const auto& p = ports.at("i40iw0:1");
  CHECK(p.counters.empty());
  CHECK(p.unreadable.size() == 5);
  CHECK(p.unreadable.at("link_downed") == "N/A (no PMA)");
}

TEST_CASE("ib_links: counters/ wins over hw_counters/ and GID 0 gives the subnet prefix") {
  // synthetic: the probe's blocks; the GID is mlx5_0's GID[0] of the openucx/ucx #9908 capture
  // (tests/fixtures/ibv_devinfo/cx6-hdr-vv-port-active-and-port-down-ucx9908.txt).
  auto ports =
      parse_ib_links("==> mlx5_0/ports/1/counters/symbol_error <==\n0\n"
                     "==> mlx5_0/ports/1/hw_counters/symbol_error <==\n7\n"
                     "==> mlx5_0/ports/1/hw_counters/link_downed <==\n2\n"
                     "==> mlx5_0/ports/1/gids/0 <==\nfe80:0000:0000:0000:88e9:a4ff:ff25:a462\n");
  const auto& p = ports.at("mlx5_0:1");
  CHECK(p.counters.at("symbol_error") == 0);
  CHECK(p.counters.at("link_downed") == 2);
  CHECK(p.subnet_prefix() == "fe80:0000:0000:0000");
  CHECK(PortLink{}.subnet_prefix().empty());
}

TEST_CASE("ibv_devinfo MTUs: a RoCE VF at 1024 of 4096 (Azure), InfiniBand at 4096 (ucx #9908)") {
  auto azure =
      parse_verbs_mtu(fixture("ibv_devinfo/azure-hbv2-roce-an-and-ib-renamed-devices.txt"));
  REQUIRE(azure.count("rdmaP23800p0s2:1"));
  CHECK(azure["rdmaP23800p0s2:1"].active_mtu == 1024);
  CHECK(azure["rdmaP23800p0s2:1"].max_mtu == 4096);
  auto ib =
      parse_verbs_mtu(fixture("ibv_devinfo/cx6-hdr-vv-port-active-and-port-down-ucx9908.txt"));
  CHECK(ib.at("mlx5_0:1").active_mtu == 4096);
  CHECK(ib.at("mlx5_1:1").active_mtu == 4096);
  CHECK(parse_verbs_mtu(fixture("ibv_devinfo/no-userspace-provider-0-hcas.txt")).empty());
}

TEST_CASE("net_mtu: NAME MTU lines, junk is skipped") {
  // synthetic: the net_mtu section's format (/sys/class/net/<if>/mtu holds one decimal)
  auto m = parse_net_mtu("lo 65536\neth0 1500\nnet1 9000\nbroken\nx abc\n");
  CHECK(m.size() == 3);
  CHECK(m.at("net1") == 9000);
}

TEST_CASE("the node probe carries the link sections and parse_node_probe fills NodeFacts::link") {
  auto script = std::string(node_probe_script());
  CHECK(script.find("begin ib_links") != std::string::npos);
  CHECK(script.find("begin net_mtu") != std::string::npos);
  CHECK(script.find("begin ib_links") < script.rfind("done@@"));
  auto f = parse_node_probe(
      "@@icheck:begin ib_links@@\n==> mlx5_2/ports/1/counters/symbol_error <==\n12\n@@icheck:end "
      "ib_links rc=0@@\n"
      "@@icheck:begin net_mtu@@\neth0 1500\n@@icheck:end net_mtu rc=0@@\n@@icheck:done@@\n");
  CHECK(f.link.counters_read);
  CHECK(f.link.ports.at("mlx5_2:1").counters.at("symbol_error") == 12);
  CHECK(f.link.netdev_mtu.at("eth0") == 1500);
}
