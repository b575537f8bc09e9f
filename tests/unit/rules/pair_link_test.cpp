// The RDMA path between a prefill and a decode pod (rules/pair/pair_link.hpp): link layers,
// MTUs, IB subnet prefixes and RoCE GIDs that do not meet, from both pods' facts.
#include "rules/pair/pair_link.hpp"
#include "test_node_fixture.hpp"
#include "util/text.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;
using rules::PairPod;

namespace {

// synthetic: ibv_devinfo's port block (the layout of the ucx #9908 capture) for each HCA, with
// this active_mtu
std::string verbs_mtu(const std::vector<std::string>& names, int active) {
  std::string t;
  for (const auto& n : names)
    t += "hca_id:\t" + n +
         "\n\ttransport:\t\t\tInfiniBand (0)\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n" +
         "\t\t\tmax_mtu:\t\t4096 (5)\n\t\t\tactive_mtu:\t\t" + std::to_string(active) + " (" +
         (active == 4096 ? "5" : "4") + ")\n\n";
  return t;
}

// synthetic: GID 0 of each HCA's port 1 in the probe's ib_links blocks, with this subnet prefix
// (the interface id of mlx5_0's GID[0] in the ucx #9908 capture)
std::string gid0(const std::vector<std::string>& names, const std::string& prefix) {
  std::string t;
  for (const auto& n : names)
    t += "==> " + n + "/ports/1/gids/0 <==\n" + prefix + ":88e9:a4ff:ff25:a462\n";
  return t;
}

Probe roce_bond(const std::string& gids) {
  auto p = healthy_h100();
  p.set("roce_gids", gids)
      .set("pod_netdevs", "lo\nbond1\nb3.vxlan.30100\n")
      .set("transport_env", "UCX_NET_DEVICES=mlx5_bond_0:1\n");
  return p;
}

std::string bond_gids() {
  return fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt");
}

// The show_gids rows of one RoCE version only.
std::string only(const std::string& version) {
  std::string out;
  const std::string gids = bond_gids();  // named: lines() views into it
  for (auto line : text::lines(gids))
    if (text::contains(line, "mlx5_bond_0") && text::contains(line, " " + version + " "))
      out += std::string(line) + "\n";
  return out;
}

rules::PairLinkFindings judge_pair(const probe::NodeFacts& p, const probe::NodeFacts& d) {
  return rules::pair_link_findings(PairPod{"llm-prefill-0", "gpu-a01", &p},
                                   PairPod{"llm-decode-0", "gpu-b07", &d});
}

}  // namespace

TEST_CASE("pair: one fabric, one MTU, one subnet, the same GIDs: no finding") {
  const auto names = h100_nics();
  auto ib = healthy_h100()
                .set("ibv_devinfo", verbs_mtu(names, 4096))
                .set("ib_links", gid0(names, "fe80:0000:0000:0000"))
                .facts();
  auto found = judge_pair(ib, ib);
  CHECK(found.prefill.empty());
  CHECK(found.decode.empty());
  auto roce = roce_bond(bond_gids()).facts();
  CHECK(judge_pair(roce, roce).prefill.empty());
}

TEST_CASE("pair link layer: InfiniBand KV ports against RoCE ones fail on both pods, naming pods "
          "and nodes") {
  auto ib = healthy_h100().facts();
  auto roce = roce_bond(bond_gids()).facts();
  auto found = judge_pair(ib, roce);
  const auto& f = find(found.prefill, "pair link layer");
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::fabric);
  CHECK(
      contains(f.detail, "prefill pod llm-prefill-0 (node gpu-a01): InfiniBand on mlx5_0, mlx5_1"));
  CHECK(contains(f.detail, "decode pod llm-decode-0 (node gpu-b07): RoCE on mlx5_bond_0:1"));
  CHECK(contains(f.detail, "no RDMA path between them"));
  CHECK(find(found.decode, "pair link layer").status == Status::fail);
  CHECK(found.prefill.size() == 1);  // no path: MTUs and addresses are not compared
}

TEST_CASE("pair mtu: InfiniBand active MTU 4096 against 2048 warns with both values") {
  const auto names = h100_nics();
  auto a = healthy_h100().set("ibv_devinfo", verbs_mtu(names, 4096)).facts();
  auto b = healthy_h100().set("ibv_devinfo", verbs_mtu(names, 2048)).facts();
  auto found = judge_pair(a, b);
  const auto& f = find(found.decode, "pair mtu");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "llm-prefill-0 (node gpu-a01): RDMA MTU 4096 on "));
  CHECK(contains(f.detail, "llm-decode-0 (node gpu-b07): RDMA MTU 2048 on "));
  CHECK(contains(f.detail, "NCCL #1524"));
  CHECK_FALSE(has(found.decode, "pair link layer"));
  // One side's MTU unknown (no ibv_devinfo MTU lines): nothing claimed.
  CHECK_FALSE(has(judge_pair(a, healthy_h100().facts()).decode, "pair mtu"));
}

TEST_CASE("pair mtu: RoCE netdev MTUs 9000 against 1500 warn with both") {
  // synthetic: the net_mtu section's lines
  auto a = roce_bond(bond_gids()).set("net_mtu", "bond1 9000\n").facts();
  auto b = roce_bond(bond_gids()).set("net_mtu", "bond1 1500\n").facts();
  const auto f = find(judge_pair(a, b).prefill, "pair mtu");
  CHECK(contains(f.detail, "RDMA MTU 4096 on mlx5_bond_0:1, netdev MTU 9000 on bond1"));
  CHECK(contains(f.detail, "RDMA MTU 1024 on mlx5_bond_0:1, netdev MTU 1500 on bond1"));
}

TEST_CASE("pair subnet: InfiniBand GID 0 prefixes that differ warn with both prefixes") {
  const auto names = h100_nics();
  auto a = healthy_h100().set("ib_links", gid0(names, "fe80:0000:0000:0000")).facts();
  auto b = healthy_h100().set("ib_links", gid0(names, "fe80:0000:0000:0006")).facts();
  const auto f = find(judge_pair(a, b).prefill, "pair subnet");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "fe80:0000:0000:0000 on mlx5_0"));
  CHECK(contains(f.detail, "fe80:0000:0000:0006 on mlx5_0"));
  CHECK(contains(f.detail, "IB router"));
  CHECK_FALSE(
      has(judge_pair(a, healthy_h100().facts()).prefill, "pair subnet"));  // one side unread
}

TEST_CASE("pair gids: RoCE v1-only against v2-only GIDs, and IPv4 against IPv6, warn") {
  auto v1 = roce_bond(only("v1")).facts();
  auto v2 = roce_bond(only("v2")).facts();
  const auto f = find(judge_pair(v1, v2).prefill, "pair gids");
  CHECK(f.layer == Layer::fabric);
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "RoCE v1, IPv4 GIDs"));
  CHECK(contains(f.detail, "RoCE v2, IPv4 GIDs"));
  // synthetic: a RoCE v2 GID of a ULA IPv6 address, in the roce_gids section's row format
  auto v6 = roce_bond("mlx5_bond_0 1 0 fe80:0000:0000:0000:0ac0:ebff:fe79:391a v2 bond1\n"
                      "mlx5_bond_0 1 1 fd00:1148:9000:5000:0004:0200:0003:ff20 v2 bond1\n")
                .facts();
  const auto g = find(judge_pair(v2, v6).decode, "pair gids");
  CHECK(contains(g.detail, "RoCE v2, IPv6 GIDs"));
  CHECK_FALSE(has(judge_pair(v2, roce_bond(bond_gids()).facts()).decode, "pair gids"));
}
