// sysfs_ib's per-port default P_Key and per-device node type (probe/fabric/sysfs_ib.cpp): what
// Mooncake's device auto-selection takes without a device list (vllm-project/vllm #44919).
#include "fixture.hpp"
#include "probe/node_script.hpp"
#include "probe/parsers.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

TEST_CASE("sysfs: pkeys/0 per port, node_type per device") {
  auto devs =
      parse_sysfs_ib(test::fixture("sysfs-infiniband/mooncake-candidates-pkey-node-type.txt"));
  REQUIRE(devs.size() == 3);
  CHECK(devs[0].node_type == "1: CA");
  CHECK(devs[0].ports.at(0).pkey0 == 0xffffu);
  CHECK(devs[1].ports.at(0).pkey0 == 0x7fffu);
  CHECK(devs[2].node_type == "7: unspecified");
  CHECK(devs[2].ports.at(0).link_layer_text == "Unknown");
  CHECK_FALSE(devs[2].ports.at(0).pkey0);
  // The gpud capture has no pkeys: unknown, never 0.
  auto gpud = parse_sysfs_ib(test::fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"));
  REQUIRE_FALSE(gpud.empty());
  CHECK_FALSE(gpud[0].ports.at(0).pkey0);
  CHECK(std::string(node_probe_script()).find("lid sm_lid pkeys/0; do") != std::string::npos);
}
