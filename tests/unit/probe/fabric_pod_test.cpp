#include "fixture.hpp"
#include "probe/fabric/adapters.hpp"
#include "probe/fabric/fabric_parsers.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/parsers.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <set>

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {

std::string section(const std::string& name, const std::string& body) {
  return "@@icheck:begin " + name + "@@\n" + body + "\n@@icheck:end " + name + " rc=0@@\n";
}

// The ls lines of the Mooncake #102 capture: what /sys/class/infiniband and /dev/infiniband held.
std::string ls_after(const std::string& all, const std::string& prompt) {
  auto at = all.find(prompt);
  REQUIRE(at != std::string::npos);
  auto start = all.find('\n', at) + 1;
  return all.substr(start, all.find("\n\n", start) - start);
}

}  // namespace

TEST_CASE("show_gids: link-local and IPv4 GIDs, v1 and v2, on a bond and a vxlan") {
  auto gids = parse_roce_gids(fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt"));
  REQUIRE(gids.size() == 6);
  CHECK(gids[0].device == "mlx5_bond_0");
  CHECK(gids[0].port == 1);
  CHECK(gids[0].index == 0);
  CHECK(gids[0].link_local());
  CHECK_FALSE(gids[0].v2());
  CHECK(gids[0].netdev == "bond1");
  CHECK(gids[3].index == 3);
  CHECK(gids[3].v2());
  CHECK(gids[3].ipv4());
  CHECK(gids[3].netdev == "b3.vxlan.30100");
  CHECK(gids[5].netdev == "bond1");
}

TEST_CASE("roce_gids section: the probe's show_gids columns without IPv4, '-' is unread") {
  auto gids = parse_roce_gids("mlx5_0 1 3 0000:0000:0000:0000:0000:ffff:0a00:0001 v2 -\n"
                              "mlx5_0 1 4 fe80:0000:0000:0000:0ac0:ebff:fe79:391a - eth0\n");
  REQUIRE(gids.size() == 2);
  CHECK(gids[0].netdev.empty());
  CHECK(gids[0].v2());
  CHECK(gids[1].version.empty());
  CHECK(gids[1].netdev == "eth0");
  auto scanned = parse_roce_gids_scanned(
      "mlx5_0 1 3 0000:0000:0000:0000:0000:ffff:0a00:0001 v2 -\nmlx5_0 1 scanned 19\n");
  CHECK(scanned.at("mlx5_0:1") == 19);
}

TEST_CASE(
    "allocation: only the HCA whose uverbs node the pod has is the pod's (Mooncake #102 erdma)") {
  auto all = fixture("misc/dev-infiniband-and-ibv_devices-erdma-container.txt");
  std::string sysfs;
  for (auto name :
       {"erdma_0", "erdma_1"})  // synthetic: sysfs files for the two devices the ls shows
    sysfs += std::string("==> ") + name + "/ports/1/state <==\n4: ACTIVE\n==> " + name +
             "/ports/1/link_layer <==\nEthernet\n";
  CHECK(ls_after(all, "$ ls /sys/class/infiniband") == "erdma_0  erdma_1");
  auto dev = ls_after(all, "$ ls /dev/infiniband/");
  // synthetic: /sys/class/infiniband_verbs/uverbsN/ibdev as the uverbs_ibdev section prints it
  auto raw = section("sysfs_ib", sysfs) + section("dev_infiniband", "rdma_cm\nuverbs0") +
             section("uverbs_ibdev", "uverbs0 erdma_0\nuverbs1 erdma_1") + "@@icheck:done@@\n";
  CHECK(dev == "rdma_cm  uverbs0");
  auto f = parse_node_probe(raw);
  CHECK(f.uverbs_ibdev.at("uverbs1") == "erdma_1");
  REQUIRE(f.sysfs_devices.size() == 1);
  CHECK(f.sysfs_devices[0].name == "erdma_0");
  REQUIRE(f.unallocated_devices.size() == 1);
  CHECK(f.unallocated_devices[0].name == "erdma_1");
}

TEST_CASE(
    "allocation unknown (no infiniband_verbs map, or no uverbs node at all): nothing is moved") {
  auto sysfs = fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
  auto f = parse_node_probe(section("sysfs_ib", sysfs) +
                            section("dev_infiniband", "rdma_cm\nuverbs0") + "@@icheck:done@@\n");
  CHECK(f.sysfs_devices.size() == 9);
  CHECK(f.unallocated_devices.empty());
  f = parse_node_probe(section("sysfs_ib", sysfs) + section("dev_infiniband", "rdma_cm") +
                       section("uverbs_ibdev", "uverbs0 mlx5_0") + "@@icheck:done@@\n");
  CHECK(f.sysfs_devices.size() == 9);
}

TEST_CASE("adapters: speed and width from the sysfs rate, the model from hca_type") {
  CHECK(rate_speed("400 Gb/sec (4X NDR)") == IbSpeed::ndr);
  CHECK(rate_speed("200 Gb/sec (4X HDR)") == IbSpeed::hdr);
  CHECK(rate_speed("56 Gb/sec (4X FDR)") == IbSpeed::fdr);
  CHECK(rate_speed("10 Gb/sec (4X)") == IbSpeed::sdr);
  CHECK_FALSE(rate_speed("400").has_value());
  CHECK(rate_width("200 Gb/sec (2X NDR)") == 2);
  CHECK_FALSE(rate_width("400").has_value());
  REQUIRE(adapter_spec("MT4129") != nullptr);
  CHECK(adapter_spec("MT4129")->model == "ConnectX-7");
  CHECK(adapter_spec("MT4123")->ib_speed == IbSpeed::hdr);
  CHECK_FALSE(adapter_spec("MT4125")->ib_speed.has_value());  // ConnectX-6 Dx: Ethernet only
  CHECK(adapter_spec("MT9999") == nullptr);
}

TEST_CASE(
    "expected rate: ConnectX-7 IB 400, BlueField-3 RoCE bond not rated, ibstat's bare rate as 4X") {
  auto f = parse_node_probe(
      section("sysfs_ib", fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt")) +
      "@@icheck:done@@\n");
  REQUIRE(f.sysfs_devices.size() == 9);
  CHECK(f.sysfs_devices[0].model == "ConnectX-7");
  CHECK(f.sysfs_devices[0].board_id == "MT_0000000838");
  CHECK(f.sysfs_devices[0].ports[0].expected_gbps == doctest::Approx(400));
  CHECK(f.sysfs_devices[8].model == "BlueField-3");
  CHECK_FALSE(f.sysfs_devices[8].ports[0].expected_gbps.has_value());  // Ethernet: not judged
  auto ib = parse_ibstat(fixture("ibstat/h100-ib-cx7-400g-eth-ports-disabled.txt"));
  REQUIRE(ib.devices.size() > 1);
  CHECK(expected_rate_gbps(ib.devices[0], ib.devices[0].ports[0]) ==
        doctest::Approx(400));  // "Rate: 400", MT4129
  CHECK_FALSE(
      expected_rate_gbps(ib.devices[1], ib.devices[1].ports[0]).has_value());  // MT4125 Ethernet
  // A ConnectX-6 VF (MT4124, Azure) is not rated: its speed is the board's, not the ASIC's.
  auto vf = parse_ibstat(fixture("ibstat/a100-8x-cx6-ib-200g-ibpanic-exit255.txt"));
  REQUIRE_FALSE(vf.devices.empty());
  CHECK_FALSE(expected_rate_gbps(vf.devices[0], vf.devices[0].ports[0]).has_value());
}

namespace {

// The probe's pod_addrs fragment with its /proc/net files replaced by copies of the fixtures.
std::string pod_addrs_fragment(const std::string& fib, const std::string& inet6) {
  std::string script(node_probe_script());
  auto from = script.find("begin pod_addrs");
  auto to = script.find("end pod_addrs 0");
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  auto frag = script.substr(from + 16, to - from - 16);
  for (auto [path, with] : {std::pair{std::string("/proc/net/fib_trie"), fib},
                            std::pair{std::string("/proc/net/if_inet6"), inet6}})
    for (auto at = frag.find(path); at != std::string::npos; at = frag.find(path, at + 1))
      frag.replace(at, path.size(), with);
  return frag;
}

std::string write_temp(const std::string& name, const std::string& body) {
  auto path = std::filesystem::temp_directory_path() / ("icheck-" + name);
  std::ofstream(path, std::ios::binary) << body;
  return path.string();
}

}  // namespace

TEST_CASE("pod_addrs: the namespace's local IPv4 (fib_trie) and IPv6 (if_inet6) addresses") {
  auto fib = write_temp("fib_trie", fixture("netns/fib-trie-eth0-192.0.2.2.txt"));
  auto inet6 = write_temp("if_inet6", fixture("netns/if-inet6-eth0.txt"));
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    auto out = icheck::test::run_shell(shell, pod_addrs_fragment(fib, inet6));
    auto a = parse_pod_addrs(out, true);
    REQUIRE(a.ipv4);
    // Only the "/32 host LOCAL" leaves: not 127.0.0.0/8, the network or the broadcast address.
    CHECK(*a.ipv4 == std::set<std::string>{"127.0.0.1", "192.0.2.2"});
    REQUIRE(a.ipv6);
    CHECK(a.ipv6->count("eth0 fe8000000000000000fc00fffe000001") == 1);
    CHECK(a.ipv6->count("eth0 fd000000000000000000000000000002") == 1);
    CHECK(a.ipv6->size() == 3);
    // The files missing: each family unknown, never "no address".
    auto none = parse_pod_addrs(
        icheck::test::run_shell(shell, pod_addrs_fragment("/nonexistent/a", "/nonexistent/b")),
        true);
    CHECK_FALSE(none.ipv4);
    CHECK_FALSE(none.ipv6);
  }
  std::filesystem::remove(fib);
  std::filesystem::remove(inet6);
}

TEST_CASE("pod_addrs: a cut section knows no address, and link lines give each netdev MAC") {
  auto whole = parse_pod_addrs("inet 10.0.0.5\nlink eth0 02:FC:00:00:00:01\ninet6 unread\n", true);
  REQUIRE(whole.ipv4);
  CHECK(whole.ipv4->count("10.0.0.5") == 1);
  CHECK_FALSE(whole.ipv6);
  CHECK(whole.macs.at("eth0") == "02:fc:00:00:00:01");
  auto cut = parse_pod_addrs("inet 10.0.0.5\n", false);
  CHECK_FALSE(cut.ipv4);
  CHECK_FALSE(cut.ipv6);
}
