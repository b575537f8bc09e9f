// The Mooncake transfer engine's needs when it moves KV (SGLang's default engine): a RoCE v2 GID
// of the family it accepts (kvcache-ai/Mooncake #1593), the HCAs it is told to use against the
// pod's, and TCP forced. Facts through the probe's own parser (test_node_fixture.hpp).
#include "../test_node_fixture.hpp"
#include "rules/nixl/nixl_backend.hpp"
#include "rules/rdma_access/mooncake.hpp"

#include <doctest/doctest.h>
#include <optional>

using namespace icheck;
using namespace icheck::rules::test;
using report::Status;

namespace {

rules::KvBackends sglang_mooncake(std::vector<std::string> extra = {}) {
  std::vector<std::string> line{"python3", "-m", "dynamo.sglang", "--disaggregation-mode",
                                "decode"};
  line.insert(line.end(), extra.begin(), extra.end());
  auto b = rules::kv_backends({}, line);
  REQUIRE(b.library == "MOONCAKE");
  return b;
}

// The gpud H100 node's RoCE bond (mlx5_bond_0) with the GIDs of the ucx #9484 show_gids capture
// (real: link-local v1/v2, IPv4 v1/v2), unless `gids` replaces them.
Probe roce(const std::string& gids = fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt"),
           const std::string& env = "") {
  auto p = healthy_h100();
  p.set("roce_gids", gids).set("transport_env", env);
  return p;
}

// synthetic, in the probe's roce_gids line format: the GID table of kvcache-ai/Mooncake #1593 (only
// IPv6: link-local RoCE v1 and v2, and a global IPv6 RoCE v2 entry, here from 2001:db8::/32).
const std::string ipv6_only = "mlx5_bond_0 1 0 fe80:0000:0000:0000:0225:9dff:fe33:33aa v1 bond0\n"
                              "mlx5_bond_0 1 1 fe80:0000:0000:0000:0225:9dff:fe33:33aa v2 bond0\n"
                              "mlx5_bond_0 1 2 2001:0db8:0000:0000:0225:9dff:fe33:33aa v1 bond0\n"
                              "mlx5_bond_0 1 3 2001:0db8:0000:0000:0225:9dff:fe33:33aa v2 bond0\n";

// A copy, not a pointer: the tests look findings up in vectors that die with the expression.
std::optional<report::Finding> named(const std::vector<report::Finding>& fs,
                                     const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name)
      return f;
  return std::nullopt;
}

}  // namespace

TEST_CASE("mooncake: an IPv4 RoCE v2 GID is ok and optional, nothing else is said") {
  auto fs = rules::judge_mooncake(roce().facts(), sglang_mooncake());
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].name == "mooncake gid");
  CHECK(fs[0].status == Status::ok);
  CHECK_FALSE(fs[0].required);
  CHECK(fs[0].layer == report::Layer::rdma_access);
  CHECK(fs[0].detail ==
        "Mooncake (KV engine: SGLang's default (no --disaggregation-transfer-backend)): a RoCE v2 "
        "IPv4 GID on 1 RoCE port");
}

TEST_CASE(
    "mooncake: only IPv6 RoCE v2 GIDs warn (Mooncake #1593), only link-local warn, no v2 fails") {
  auto f = named(rules::judge_mooncake(roce(ipv6_only).facts(), sglang_mooncake()), "mooncake gid");
  REQUIRE(f);
  CHECK(f->status == Status::warn);
  CHECK(
      contains(f->detail,
               "only IPv6 RoCE v2 GIDs on mlx5_bond_0:1: Mooncake before kvcache-ai/Mooncake #1597 "
               "accepts IPv4-mapped ones only"));
  f = named(
      rules::judge_mooncake(roce(ipv6_only.substr(0, ipv6_only.find("mlx5_bond_0 1 2"))).facts(),
                            sglang_mooncake()),
      "mooncake gid");
  CHECK(f->status == Status::warn);
  CHECK(contains(f->detail, "only link-local RoCE v2 GIDs"));
  f = named(rules::judge_mooncake(
                roce("mlx5_bond_0 1 0 fe80:0000:0000:0000:0225:9dff:fe33:33aa v1 bond0\n").facts(),
                sglang_mooncake()),
            "mooncake gid");
  CHECK(f->status == Status::fail);
  CHECK(contains(f->detail, "no RoCE v2 GID on mlx5_bond_0:1"));
}

TEST_CASE("mooncake: MC_GID_INDEX must name a RoCE v2 entry, MC_FORCE_TCP fails") {
  const std::string gids = fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt");
  auto f = named(rules::judge_mooncake(roce(gids, "MC_GID_INDEX=2\n").facts(), sglang_mooncake()),
                 "mooncake gid");
  CHECK(f->status == Status::fail);
  CHECK(contains(f->detail, "MC_GID_INDEX=2 names no RoCE v2 GID on mlx5_bond_0:1"));
  f = named(rules::judge_mooncake(roce(gids, "MC_GID_INDEX=3\n").facts(), sglang_mooncake()),
            "mooncake gid");
  CHECK(f->status == Status::ok);
  auto tcp = named(rules::judge_mooncake(roce(gids, "MC_FORCE_TCP=1\n").facts(), sglang_mooncake()),
                   "mooncake tcp");
  REQUIRE(tcp);
  CHECK(tcp->status == Status::fail);
  CHECK(contains(tcp->detail, "MC_FORCE_TCP=1: KV goes over TCP, not RDMA"));
}

TEST_CASE("mooncake: the HCAs it is told to use must be the pod's") {
  auto p = roce();
  auto fs = rules::judge_mooncake(
      p.facts(), sglang_mooncake({"--disaggregation-ib-device", "mlx5_0,mlx5_42"}));
  auto f = named(fs, "mooncake devices");
  REQUIRE(f);
  CHECK(f->status == Status::fail);
  CHECK(contains(f->detail, "mlx5_42 not an RDMA device here"));
  p.set("transport_env", "MC_MS_FILTERS=mlx5_0, mlx5_1\n");
  CHECK(named(rules::judge_mooncake(p.facts(), sglang_mooncake()), "mooncake devices") ==
        std::nullopt);
  // InfiniBand HCAs named: no RoCE port among them, no GID finding.
  CHECK(named(rules::judge_mooncake(p.facts(), sglang_mooncake()), "mooncake gid") == std::nullopt);
}
