#include <doctest/doctest.h>

#include <algorithm>

#include "fixture.hpp"
#include "probe/parsers.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;

TEST_CASE("sysfs: 8 CX-7 400G IB + a BlueField-3 bond at 2X NDR") {
  auto devs = parse_sysfs_ib(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"));
  REQUIRE(devs.size() == 9);
  CHECK(devs[0].name == "mlx5_0");
  CHECK(devs[0].ca_type == "MT4129");
  CHECK(devs[0].fw == "28.41.1000");
  REQUIRE(devs[0].ports.size() == 1);
  CHECK(devs[0].ports[0].state_text == "4: ACTIVE");
  CHECK(devs[0].ports[0].state == PortState::active);
  CHECK(devs[0].ports[0].phys_state == PhysState::linkup);
  CHECK(devs[0].ports[0].rate_gbps == doctest::Approx(400));
  CHECK(devs[0].ports[0].rate_text == "400 Gb/sec (4X NDR)");
  CHECK(devs[0].ports[0].link_layer == LinkLayer::infiniband);
  const IbDevice* bond = nullptr;
  for (const auto& d : devs)
    if (d.name == "mlx5_bond_0") bond = &d;
  REQUIRE(bond != nullptr);
  CHECK(bond->ports.at(0).rate_gbps == doctest::Approx(200));
  CHECK(bond->ports.at(0).rate_text == "200 Gb/sec (2X NDR)");
  CHECK(bond->ports.at(0).link_layer == LinkLayer::ethernet);
}

TEST_CASE("sysfs: the script's extra files (device link, numa_node, netdev, operstate)") {
  auto devs = parse_sysfs_ib(
      "==> mlx5_3/hca_type <==\nMT4129\n"
      "==> mlx5_3/ports/1/state <==\n2: INIT\n"
      "==> mlx5_3/ports/1/phys_state <==\n5: LinkUp\n"
      "==> mlx5_3/device <==\n/sys/devices/pci0000:30/0000:30:01.0/0000:3a:00.0\n"
      "==> mlx5_3/device/numa_node <==\n1\n"
      "==> mlx5_3/device/net <==\nibp58s0\n"
      "==> mlx5_3/device/net/ibp58s0/operstate <==\ndown\n"
      "==> mlx5_4/device/numa_node <==\n-1\n");
  REQUIRE(devs.size() == 2);
  CHECK(devs[0].pci_address == "0000:3a:00.0");
  CHECK(devs[0].numa_node == 1);
  CHECK(devs[0].netdevs == std::vector<std::string>{"ibp58s0"});
  CHECK(devs[0].ports.at(0).state == PortState::init);
  CHECK(devs[0].ports.at(0).netdev == "ibp58s0");
  CHECK(devs[0].ports.at(0).netdev_up == false);
  CHECK_FALSE(devs[1].numa_node.has_value());  // -1 = unknown
}

TEST_CASE("ibv_devinfo: udev-renamed Azure devices") {
  auto v = parse_ibv_devinfo(fixture("ibv_devinfo/azure-hbv2-roce-an-and-ib-renamed-devices.txt"));
  CHECK(v.error == VerbsError::none);
  REQUIRE(v.devices.size() == 2);
  CHECK(v.device_count == 2);
  CHECK(v.devices[0].name == "rdmaP23800p0s2");
  CHECK(v.devices[0].fw == "14.25.8102");
  CHECK(v.devices[0].ca_type == "MT4118");
  REQUIRE(v.devices[0].ports.size() == 1);
  CHECK(v.devices[0].ports[0].state == PortState::active);
  CHECK(v.devices[0].ports[0].link_layer == LinkLayer::ethernet);
  CHECK(v.devices[1].name == "ibP57247p0s2");
  CHECK(v.devices[1].ca_type == "MT4120");
  CHECK(v.devices[1].ports.empty());  // cut before its port block
}

TEST_CASE("ibv_devinfo -vv: active and down ports") {
  auto v = parse_ibv_devinfo(fixture("ibv_devinfo/cx6-hdr-vv-port-active-and-port-down-ucx9908.txt"));
  REQUIRE(v.devices.size() == 2);
  const auto& up = v.devices[0].ports.at(0);
  CHECK(up.state_text == "PORT_ACTIVE (4)");
  CHECK(up.state == PortState::active);
  CHECK(up.phys_state == PhysState::linkup);
  CHECK(up.rate_text == "50.0 Gbps (64)");
  CHECK(up.base_lid == 4);
  const auto& down = v.devices[1].ports.at(0);
  CHECK(down.state == PortState::down);
  CHECK(down.phys_state_text == "DISABLED (3)");
  CHECK(down.phys_state == PhysState::disabled);
  CHECK(down.rate_text == "invalid speed (0)");
  CHECK(down.base_lid == 65535);
}

TEST_CASE("ibv_devinfo: no config directory -> no devices, cause named") {
  auto v = parse_ibv_devinfo(fixture("ibv_devinfo/no-libibverbs-config-dir-no-devices.txt"));
  CHECK(v.device_count == 0);
  CHECK(v.error == VerbsError::no_config_dir);
  CHECK(v.error_text == "libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.");
}

TEST_CASE("ibv_devinfo -l: no userspace provider, 0 HCAs") {
  auto v = parse_ibv_devinfo(fixture("ibv_devinfo/no-userspace-provider-0-hcas.txt"));
  CHECK(v.device_count == 0);
  CHECK(v.error == VerbsError::no_provider);
  CHECK(v.error_text ==
        "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs4");
}

TEST_CASE("ibv_devinfo: provider ABI mismatch") {
  auto v = parse_ibv_devinfo(
      "libibverbs: Warning: Driver bnxt_re does not support the kernel ABI of 6 (supports 1 to 5) for device "
      "/sys/class/infiniband/bnxt_re0\nNo IB devices found\n");
  CHECK(v.device_count == 0);
  CHECK(v.error == VerbsError::abi_mismatch);
}

TEST_CASE("ibv_devinfo: old format, 1 of 9 devices opens") {
  auto v = parse_ibv_devinfo(fixture("ibv_devinfo/old-format-device-ports-failed-to-open.txt"));
  REQUIRE(v.devices.size() == 1);
  CHECK(v.device_count == 1);
  CHECK(v.failed_devices == 8);
  CHECK(v.error == VerbsError::none);
  CHECK(v.devices[0].name == "mlx4_2");
  CHECK(v.devices[0].ports.at(0).state == PortState::active);
  CHECK(v.devices[0].ports.at(0).link_layer == LinkLayer::infiniband);
}

TEST_CASE("ibv_devices: tables") {
  CHECK(parse_ibv_devices_count(fixture("misc/ibv_devices-bond-normal.txt")) == 2);
  CHECK(parse_ibv_devices_count("    device                 node GUID\n    ------              ----------------\n") == 0);
  CHECK_FALSE(parse_ibv_devices_count("").has_value());
}

TEST_CASE("misc: erdma container: 2 devices in sysfs, 1 uverbs node, ibv_devices lists 1") {
  auto text = fixture("misc/dev-infiniband-and-ibv_devices-erdma-container.txt");
  CHECK(parse_ibv_devices_count(text) == 1);
  auto names = parse_dev_listing(text.substr(0, text.find("$ ibv_devices")));
  CHECK(names == std::vector<std::string>{"erdma_0", "erdma_1", "rdma_cm", "uverbs0"});
}

TEST_CASE("ibdev2netdev: column -t output with comments") {
  auto ports = parse_ibdev2netdev(fixture("ibdev2netdev/h100-8x-cx7-ib-plus-cx6-eth-imbue.txt"));
  REQUIRE(ports.size() == 12);
  CHECK(ports[0].device == "mlx5_0");
  CHECK(ports[0].port == 1);
  CHECK(ports[0].netdev == "ibp26s0");
  CHECK(ports[0].netdev_up == false);
  CHECK(ports[1].netdev == "enp27s0f0np0");
  CHECK(ports[1].netdev_up == true);
}

TEST_CASE("ibdev2netdev: SR-IOV VFs, list starting mid-way") {
  auto ports = parse_ibdev2netdev(fixture("ibdev2netdev/cx6-ib-with-sriov-vfs-partial.txt"));
  REQUIRE(ports.size() >= 9);
  CHECK(ports[0].device == "mlx5_19");
  CHECK(ports[0].netdev == "ibp75s0v7");
  CHECK(ports[1].device == "mlx5_2");
  CHECK(ports[1].netdev_up == true);
}

TEST_CASE("dev listing: ls -l of /dev/infiniband on a host") {
  auto names = parse_dev_listing(fixture("misc/dev-infiniband-host-listing-uverbs-umad-by-ibdev.txt"));
  REQUIRE(names.size() >= 4);
  CHECK(names[0] == "by-ibdev");
  CHECK(names[1] == "by-path");
  CHECK(names[2] == "rdma_cm");
  CHECK(names[3] == "umad0");
  int uverbs = 0;
  for (const auto& n : names) uverbs += n.rfind("uverbs", 0) == 0;
  CHECK(uverbs == 8);
}

TEST_CASE("dev listing: privileged pod, issm/umad/rdma_cm, no uverbs shown") {
  auto names = parse_dev_listing(fixture("misc/dev-infiniband-privileged-pod-listing.txt"));
  CHECK(names.front() == "issm0");
  CHECK(std::count(names.begin(), names.end(), "rdma_cm") == 1);
  for (const auto& n : names) CHECK(n.rfind("uverbs", 0) != 0);
}
