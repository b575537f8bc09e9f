#include <doctest/doctest.h>

#include "fixture.hpp"
#include "probe/parsers.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;

TEST_CASE("ibstat: port vocabulary in every spelling") {
  CHECK(parse_port_state("4: ACTIVE") == PortState::active);
  CHECK(parse_port_state("Active") == PortState::active);
  CHECK(parse_port_state("PORT_ACTIVE (4)") == PortState::active);
  CHECK(parse_port_state("2: INIT") == PortState::init);
  CHECK(parse_port_state("Initializing") == PortState::init);
  CHECK(parse_port_state("3: ARMED") == PortState::armed);
  CHECK(parse_port_state("1: DOWN") == PortState::down);
  CHECK(parse_port_state("5: ACTIVE_DEFER") == PortState::active_defer);
  CHECK(parse_port_state("???") == PortState::unknown);
  CHECK(parse_phys_state("5: LinkUp") == PhysState::linkup);
  CHECK(parse_phys_state("LINK_UP (5)") == PhysState::linkup);
  CHECK(parse_phys_state("3: Disabled") == PhysState::disabled);
  CHECK(parse_phys_state("2: Polling") == PhysState::polling);
  CHECK(parse_phys_state("1: Sleep") == PhysState::sleep);
  CHECK(parse_phys_state("4: PortConfigurationTraining") == PhysState::port_config_training);
  CHECK(parse_phys_state("6: LinkErrorRecovery") == PhysState::link_error_recovery);
  CHECK(parse_phys_state("7: Phy Test") == PhysState::phy_test);
  CHECK(parse_phys_state("7: PhyTest") == PhysState::phy_test);
  CHECK(parse_phys_state("No state change") == PhysState::no_state_change);
  CHECK(parse_phys_state("<unknown>") == PhysState::unknown);
  CHECK(parse_rate_gbps("400 Gb/sec (4X NDR)") == doctest::Approx(400));
  CHECK(parse_rate_gbps("400") == doctest::Approx(400));
  CHECK(parse_rate_gbps("2.5") == doctest::Approx(2.5));
  CHECK(parse_rate_gbps("40 (FDR10)") == doctest::Approx(40));
  CHECK_FALSE(parse_rate_gbps("").has_value());
  CHECK(parse_link_layer("InfiniBand") == LinkLayer::infiniband);
  CHECK(parse_link_layer("Ethernet") == LinkLayer::ethernet);
}

TEST_CASE("ibstat: ibpanic after 8 CAs keeps the data and the panic (exit 255)") {
  auto r = parse_ibstat(fixture("ibstat/a100-8x-cx6-ib-200g-ibpanic-exit255.txt"));
  REQUIRE(r.devices.size() == 8);
  CHECK(r.error == "ibpanic: [1400444] main: stat of IB device 'mlx5_8' failed: No such file or directory");
  const auto& d0 = r.devices[0];
  CHECK(d0.name == "mlx5_0");
  CHECK(d0.node_type == "CA");
  CHECK(d0.ca_type == "MT4124");
  CHECK(d0.fw == "20.41.1000");
  CHECK(d0.node_guid == "0x00155dfffe3411eb");
  REQUIRE(d0.ports.size() == 1);
  CHECK(d0.ports[0].device == "mlx5_0");
  CHECK(d0.ports[0].port == 1);
  CHECK(d0.ports[0].state == PortState::active);
  CHECK(d0.ports[0].phys_state == PhysState::linkup);
  CHECK(d0.ports[0].rate_gbps == doctest::Approx(200));
  CHECK(d0.ports[0].rate_text == "200");
  CHECK(d0.ports[0].base_lid == 13247);
  CHECK(d0.ports[0].sm_lid == 1);
  CHECK(d0.ports[0].link_layer == LinkLayer::infiniband);
  for (const auto& d : r.devices) CHECK(d.ports.at(0).state == PortState::active);
}

TEST_CASE("ibstat: Ethernet mlx5_0 plus 8 IB VFs, all active") {
  auto r = parse_ibstat(fixture("ibstat/a100-cx6dx-eth-plus-8x-ib-200g-all-active.txt"));
  REQUIRE(r.devices.size() == 9);
  CHECK(r.error.empty());
  CHECK(r.devices[0].ports[0].link_layer == LinkLayer::ethernet);
  CHECK(r.devices[0].ports[0].base_lid == 0);
  CHECK(r.devices[0].ca_type == "MT4126");
  CHECK(r.devices[1].name == "mlx5_1");
  CHECK(r.devices[1].ports[0].link_layer == LinkLayer::infiniband);
  CHECK(r.devices[1].ports[0].sm_lid == 83);
  CHECK(r.devices[8].name == "mlx5_8");
}

TEST_CASE("ibstat: snippet without a CA header keeps the Down/Polling port") {
  auto r = parse_ibstat(fixture("ibstat/azure-down-polling-snippet.txt"));
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].name.empty());
  REQUIRE(r.devices[0].ports.size() == 1);
  CHECK(r.devices[0].ports[0].state == PortState::down);
  CHECK(r.devices[0].ports[0].phys_state == PhysState::polling);
  CHECK_FALSE(r.devices[0].ports[0].rate_gbps.has_value());
}

TEST_CASE("ibstat: BlueField-3 bond devices, RoCE, third block cut") {
  auto r = parse_ibstat(fixture("ibstat/bluefield3-bond-roce-pplx-garden.txt"));
  REQUIRE(r.devices.size() == 3);
  CHECK(r.devices[0].name == "mlx5_bond_0");
  CHECK(r.devices[0].ca_type == "MT41692");
  CHECK(r.devices[0].ports[0].link_layer == LinkLayer::ethernet);
  CHECK(r.devices[0].ports[0].rate_gbps == doctest::Approx(200));
  CHECK(r.devices[2].name == "mlx5_bond_2");
  CHECK(r.devices[2].fw == "32.39.3804");
}

TEST_CASE("ibstat: ConnectX-3 FDR 56") {
  auto r = parse_ibstat(fixture("ibstat/connectx3-mlx4-fdr56-single-port.txt"));
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].name == "mlx4_0");
  CHECK(r.devices[0].ca_type == "MT4099");
  CHECK(r.devices[0].ports[0].rate_gbps == doctest::Approx(56));
  CHECK(r.devices[0].ports[0].state == PortState::active);
}

TEST_CASE("ibstat: two ports with interleaved ibwarn debug lines") {
  auto r = parse_ibstat(fixture("ibstat/connectx3-two-port-one-down-one-active-debug.txt"));
  REQUIRE(r.devices.size() == 1);
  CHECK(r.error.empty());  // ibwarn is chatter, not an error
  REQUIRE(r.devices[0].ports.size() == 2);
  CHECK(r.devices[0].ports[0].port == 1);
  CHECK(r.devices[0].ports[0].state == PortState::down);
  CHECK(r.devices[0].ports[0].phys_state == PhysState::disabled);
  CHECK(r.devices[0].ports[0].rate_gbps == doctest::Approx(10));
  CHECK(r.devices[0].ports[1].port == 2);
  CHECK(r.devices[0].ports[1].state == PortState::active);
  CHECK(r.devices[0].ports[1].phys_state == PhysState::linkup);
  CHECK(r.devices[0].ports[1].rate_gbps == doctest::Approx(56));
  CHECK(r.devices[0].ports[1].link_layer == LinkLayer::unknown);  // cut before Link layer
}

TEST_CASE("ibstat: block cut after Physical state") {
  auto r = parse_ibstat(fixture("ibstat/cx6dx-down-disabled-truncated-port.txt"));
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].name == "mlx5_8");
  CHECK(r.devices[0].ca_type == "MT4125");
  CHECK(r.devices[0].ports[0].state == PortState::down);
  CHECK(r.devices[0].ports[0].phys_state == PhysState::disabled);
  CHECK_FALSE(r.devices[0].ports[0].rate_gbps.has_value());
}

namespace {
const IbDevice* dev(const IbDevices& r, const std::string& name) {
  for (const auto& d : r.devices)
    if (d.name == name) return &d;
  return nullptr;
}
}  // namespace

TEST_CASE("ibstat: H100 IB 400G with three Ethernet ports disabled") {
  auto r = parse_ibstat(fixture("ibstat/h100-ib-cx7-400g-eth-ports-disabled.txt"));
  REQUIRE(r.devices.size() == 12);
  int active_ib_400 = 0;
  for (const auto& d : r.devices)
    if (d.ports[0].state == PortState::active && d.ports[0].link_layer == LinkLayer::infiniband &&
        d.ports[0].rate_gbps == 400)
      ++active_ib_400;
  CHECK(active_ib_400 == 8);
  for (auto name : {"mlx5_2", "mlx5_7", "mlx5_8"}) {
    REQUIRE(dev(r, name) != nullptr);
    CHECK(dev(r, name)->ports[0].state == PortState::down);
    CHECK(dev(r, name)->ports[0].phys_state == PhysState::disabled);
    CHECK(dev(r, name)->ports[0].link_layer == LinkLayer::ethernet);
  }
  CHECK(dev(r, "mlx5_1")->ports[0].rate_gbps == doctest::Approx(100));
}

TEST_CASE("ibstat: H100 RoCE all active") {
  auto r = parse_ibstat(fixture("ibstat/h100-roce-cx7-400g-all-active.txt"));
  REQUIRE(r.devices.size() == 12);
  int ethernet = 0, at400 = 0;
  for (const auto& d : r.devices) {
    CHECK(d.ports[0].state == PortState::active);
    ethernet += d.ports[0].link_layer == LinkLayer::ethernet;
    at400 += d.ports[0].rate_gbps == 400;
  }
  CHECK(ethernet == 12);
  CHECK(at400 == 8);
}

TEST_CASE("ibstat: one Polling and one Disabled on RoCE") {
  auto r = parse_ibstat(fixture("ibstat/h100-roce-one-polling-one-disabled.txt"));
  REQUIRE(r.devices.size() == 12);
  CHECK(dev(r, "mlx5_11")->ports[0].state == PortState::down);
  CHECK(dev(r, "mlx5_11")->ports[0].phys_state == PhysState::polling);
  CHECK(dev(r, "mlx5_11")->ports[0].rate_gbps == doctest::Approx(40));
  CHECK(dev(r, "mlx5_5")->ports[0].phys_state == PhysState::disabled);
  CHECK(dev(r, "mlx5_0")->ports[0].state == PortState::active);
}

TEST_CASE("ibstat: HDR + Down/Disabled + start of a CX-4 Lx block") {
  auto r = parse_ibstat(fixture("ibstat/hdr-cx6-one-down-disabled-plus-cx4lx-nccl-tests128.txt"));
  REQUIRE(r.devices.size() == 3);
  CHECK(r.devices[0].ports[0].state == PortState::active);
  CHECK(r.devices[0].ports[0].rate_gbps == doctest::Approx(200));
  CHECK(r.devices[1].ports[0].state == PortState::down);
  CHECK(r.devices[1].ports[0].base_lid == 65535);
  CHECK(r.devices[2].ca_type == "MT4117");
  CHECK(r.devices[2].ports[0].state == PortState::active);
}

TEST_CASE("ibstat: SR-IOV VF in a pod: Down but LinkUp, no LID") {
  auto r = parse_ibstat(fixture("ibstat/sriov-vf-in-pod-down-linkup.txt"));
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].name == "mlx5_7");
  CHECK(r.devices[0].ports[0].state == PortState::down);
  CHECK(r.devices[0].ports[0].phys_state == PhysState::linkup);
  CHECK(r.devices[0].ports[0].base_lid == 65535);
}
