// fabric "port errors" and "mtu": a port's link error counters and a RoCE port's MTU, judged on
// the pod's own ports (rules/fabric/link_rules.hpp); real captures where they exist.
#include "rules/fabric/link_rules.hpp"
#include "test_node_fixture.hpp"
#include "util/text.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

std::string gpud_sysfs() {
  return fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
}

// synthetic: the gpud capture with every counter 0 (a healthy node's values)
std::string zero_counters() {
  auto t = text::replace_all(gpud_sysfs(), "\n255\n", "\n0\n");
  return text::replace_all(t, "\n14\n", "\n0\n");
}

// The gpud node's RoCE bond (BlueField-3) carries KV; its GIDs from the ucx #9484 show_gids
// capture.
Probe roce_bond(const std::string& net_mtu) {
  auto p = healthy_h100();
  p.set("roce_gids", fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt"))
      .set("pod_netdevs", "lo\nbond1\nb3.vxlan.30100\n")
      .set("transport_env", "UCX_NET_DEVICES=mlx5_bond_0:1\n")
      .set("net_mtu", net_mtu);
  return p;
}

}  // namespace

TEST_CASE(
    "port errors: the gpud capture's link_downed 255 and port_rcv_errors 14 warn, naming ports and "
    "counts, cumulative since boot") {
  auto fs = judge(healthy_h100().set("ib_links", gpud_sysfs()));
  const auto& f = find(fs, "port errors");
  CHECK(f.layer == Layer::fabric);
  CHECK(f.status == Status::warn);
  CHECK(f.required);
  CHECK(contains(f.detail, "mlx5_0:1 port_rcv_errors 14"));
  CHECK(contains(f.detail, "mlx5_1:1 link_downed 255, port_rcv_errors 14"));
  CHECK(contains(f.detail, "cumulative since boot"));
  CHECK(contains(f.next, "twice a minute apart"));
}

TEST_CASE("port errors: zero counters, unreadable counters or none read give no finding") {
  CHECK_FALSE(has(judge(healthy_h100().set("ib_links", zero_counters())), "port errors"));
  CHECK_FALSE(has(judge(healthy_h100()), "port errors"));
  CHECK_FALSE(
      has(judge(healthy_h100().set(
              "ib_links",
              fixture("sysfs-infiniband/i40iw-iwarp-counters-no-pma-node-exporter966.txt"))),
          "port errors"));
}

TEST_CASE("port errors: a port not allocated to the pod is not judged") {
  // synthetic: the pod was given mlx5_0 only (uverbs0), the node's other HCAs stay in sysfs
  auto p = healthy_h100().set("ib_links", gpud_sysfs()).set("dev_infiniband", "rdma_cm\nuverbs0\n");
  std::string map;
  for (std::size_t i = 0; i < h100_nics().size(); ++i)
    map += "uverbs" + std::to_string(i) + " " + h100_nics()[i] + "\n";
  p.set("uverbs_ibdev", map).set("transport_env", "UCX_NET_DEVICES=mlx5_0:1\n");
  const auto f = find(judge(p), "port errors");
  CHECK(contains(f.detail, "mlx5_0:1 port_rcv_errors 14"));
  CHECK_FALSE(contains(f.detail, "mlx5_1:1"));
}

TEST_CASE("mtu: a RoCE KV port on a 1500-byte netdev warns with both MTUs and 9000 is quiet") {
  // synthetic: the net_mtu section's lines for the bond of the ucx #9484 capture
  const auto f = find(judge(roce_bond("lo 65536\nbond1 1500\nb3.vxlan.30100 1450\n")), "mtu");
  CHECK(f.layer == Layer::fabric);
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "RDMA MTU 1024 on mlx5_bond_0:1 (netdev MTU 1500: bond1)"));
  CHECK(contains(f.detail, "needs a netdev MTU of 4192 or more"));
  CHECK_FALSE(has(judge(roce_bond("lo 65536\nbond1 9000\nb3.vxlan.30100 8950\n")), "mtu"));
  CHECK_FALSE(has(judge(roce_bond("")), "mtu"));  // the netdev's MTU unread: nothing claimed
}

TEST_CASE("mtu: ibv_devinfo's active_mtu 1024 of 4096 on a RoCE VF (Azure) warns and InfiniBand is "
          "not judged "
          "here") {
  auto p = roce_bond("");
  // The Azure capture's port block, under the bond's name (the device the pod's KV uses).
  auto azure = fixture("ibv_devinfo/azure-hbv2-roce-an-and-ib-renamed-devices.txt");
  p.set("ibv_devinfo", text::replace_all(azure, "rdmaP23800p0s2", "mlx5_bond_0"));
  const auto f = find(judge(p), "mtu");
  CHECK(contains(f.detail, "RDMA MTU 1024 of 4096 on mlx5_bond_0:1"));
  auto ib = healthy_h100().set(
      "ibv_devinfo", fixture("ibv_devinfo/cx6-hdr-vv-port-active-and-port-down-ucx9908.txt"));
  CHECK_FALSE(has(judge(ib), "mtu"));
}

TEST_CASE("the RoCE netdev MTU to RDMA MTU rule (iboe_get_mtu)") {
  CHECK(rules::node::roce_rdma_mtu(9000) == 4096);
  CHECK(rules::node::roce_rdma_mtu(4200) == 4096);
  CHECK(rules::node::roce_rdma_mtu(4191) == 2048);
  CHECK(rules::node::roce_rdma_mtu(1500) == 1024);
  CHECK_FALSE(rules::node::roce_rdma_mtu(300).has_value());
}

TEST_CASE("links in -o json: counters, MTUs and netdev MTUs as read") {
  auto facts = roce_bond("bond1 1500\n").set("ib_links", gpud_sysfs()).facts();
  auto j = rules::node_facts_json(facts);
  const auto& links = j.at("links").as_object();
  CHECK(links.at("netdevMtu").as_object().at("bond1").as_int64() == 1500);
  bool seen = false;
  for (const auto& p : links.at("ports").as_array()) {
    const auto& o = p.as_object();
    if (o.at("port").as_string() == "mlx5_1:1")
      CHECK(o.at("counters").as_object().at("link_downed").to_number<long long>() == 255);
    if (o.at("port").as_string() != "mlx5_bond_0:1")
      continue;
    seen = true;
    CHECK(o.at("rdmaMtu").as_int64() == 1024);
    CHECK(o.at("netdevMtu").as_int64() == 1500);
    CHECK(o.at("netdev").as_string() == "bond1");
  }
  CHECK(seen);
}
