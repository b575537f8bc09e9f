// `--matrix nodes` (rules/transfer/node_matrix.hpp): cells from the plans, waves on distinct
// nodes, the judgement; and which NICs --matrix rails pins (engine_nics) from real node facts.
#include "../probe/fixture.hpp"
#include "pair_fixture.hpp"
#include "rules/transfer/node_matrix.hpp"
#include "test_node_fixture.hpp"

#include <doctest/doctest.h>
#include <set>

using namespace icheck;
using report::Status;
using rules::test::pair_pod;

namespace {

rules::TransferPlan plan(const std::string& prefill_node, const std::string& decode_node) {
  auto p = pair_pod("p-" + prefill_node, dynamo::Role::prefill, prefill_node, "10.0.1.5");
  auto d = pair_pod("d-" + decode_node, dynamo::Role::decode, decode_node, "10.0.1.6");
  p.nixl.tools.ucx_perftest = d.nixl.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  rules::PairingOptions o;
  o.kubectl_base = {"kubectl"};
  return rules::plan_for(p, d, o);
}

// Prefill on a and b, decode on a and c: every cross-node pair (a -> a is none).
rules::NodeMatrix three_nodes() {
  return rules::node_matrix({plan("a", "c"), plan("b", "a"), plan("b", "c")});
}

rules::CellResult reached(double gbps) {
  rules::CellResult r;
  r.ran = true;
  r.gbps = gbps;
  r.finding.status = Status::ok;
  r.finding.detail = rules::gbs_text(gbps);
  return r;
}

// Both sides ran, no data moved: the real UCX 1.13 "Destination is unreachable" pair.
rules::CellResult unreachable() {
  rules::TransferOutcome o;
  o.tool = rules::TestTool::ucx_perftest;
  o.prefill = "p";
  o.decode = "d";
  o.cross_node = true;
  o.listener.ran = o.initiator.ran = true;
  o.listener.exit_code = o.initiator.exit_code = 255;
  o.listener.out = probe::test::fixture(
      "transfer/ucx_perftest/"
      "debian-1.13-fail-server-pinned-eth0-client-lo-destination-unreachable.txt");
  o.initiator.out = probe::test::fixture(
      "transfer/ucx_perftest/"
      "debian-1.13-fail-client-pinned-lo-server-eth0-destination-unreachable.txt");
  rules::CellResult r;
  r.ran = true;
  r.gbps = rules::transfer_gbps(o);
  r.finding = rules::judge_transfer(o, 400.0);
  return r;
}

rules::CellResult not_run() {
  rules::CellResult r;
  r.why_not = "the --matrix-budget of 21 s ran out before this cell";
  return r;
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("node matrix: rows and columns from the plans, a port of its own per cell") {
  auto m = three_nodes();
  CHECK(m.prefill_nodes == std::vector<std::string>{"a", "b"});
  CHECK(m.decode_nodes == std::vector<std::string>{"c", "a"});
  REQUIRE(m.cells.size() == 3);
  CHECK((m.cells[1].row == 1 && m.cells[1].col == 1));
  std::set<int> ports;
  for (const auto& c : m.cells) {
    const int port = rules::argv_port(c.plan.listener_argv);
    CHECK(port == rules::argv_port(c.plan.initiator_argv));
    ports.insert(port);
  }
  CHECK(ports.size() == 3);
  CHECK(has(m.cells[2].plan.listener_command(), "-p 13339"));
}

TEST_CASE("node matrix: a wave never holds a node or a pod twice") {
  auto m = rules::node_matrix({plan("a", "c"), plan("a", "d"), plan("b", "c"), plan("b", "d")});
  auto waves = rules::node_waves(m, 8);
  CHECK(waves == std::vector<std::vector<std::size_t>>{{0, 3}, {1, 2}});
  CHECK(rules::node_waves(m, 1).size() == 4);
}

TEST_CASE("node matrix: healthy cells are ok, naming the slowest pair") {
  auto m = three_nodes();
  auto f = rules::judge_node_matrix(m, {reached(40), reached(38), reached(41)});
  CHECK(f.status == Status::ok);
  CHECK(f.is_transfer);
  CHECK(f.detail == "node matrix 2x2 (3 node pairs): slowest pair b -> a: 38.0 GB/s");
}

TEST_CASE("node matrix: a node that reaches no peer fails naming it and its peers") {
  auto m = three_nodes();
  auto f = rules::judge_node_matrix(m, {reached(40), unreachable(), unreachable()});
  CHECK(f.status == Status::fail);
  CHECK(has(f.detail, "node b reaches no peer node (tried a, c)"));
  CHECK_FALSE(has(f.detail, "cannot connect"));
  CHECK(has(f.next, "kubectl dynamo-icheck node -o wide"));
  // One cell down between nodes that reach others: that pair, with the cell's own why.
  auto one = rules::judge_node_matrix(m, {reached(40), reached(40), unreachable()});
  CHECK(one.status == Status::fail);
  CHECK(has(one.detail, "cannot connect: b -> c ("));
  CHECK(has(one.detail, "Destination is unreachable"));
  CHECK_FALSE(has(one.detail, "reaches no peer"));
  // Nothing connects: no node is blamed over another.
  auto none = rules::judge_node_matrix(m, {unreachable(), unreachable(), unreachable()});
  CHECK(has(none.detail, "no node pair connects: a -> c, b -> a, b -> c"));
  CHECK_FALSE(has(none.detail, "reaches no peer"));
}

TEST_CASE("node matrix: a pair far below the others warns, and a node slow with every peer is named") {
  auto m = rules::node_matrix({plan("a", "c"), plan("a", "d"), plan("b", "c"), plan("b", "d")});
  auto pair = rules::judge_node_matrix(m, {reached(40), reached(41), reached(39), reached(9)});
  CHECK(pair.status == Status::warn);
  CHECK(has(pair.detail, "slow node pair: b -> d moves 9.0 GB/s against 40.0 GB/s"));
  auto node = rules::judge_node_matrix(m, {reached(40), reached(8), reached(41), reached(9)});
  CHECK(node.status == Status::warn);
  CHECK(has(node.detail, "slow node: d moves 8.5 GB/s with each peer"));
  CHECK_FALSE(has(node.detail, "slow node pair"));
  // Within half of the others: not slow.
  CHECK(rules::judge_node_matrix(m, {reached(40), reached(30), reached(35), reached(25)}).status ==
        Status::ok);
}

TEST_CASE("node matrix: cells not run are skipped with why, never ok") {
  auto m = three_nodes();
  auto f = rules::judge_node_matrix(m, {reached(40), not_run(), not_run()});
  CHECK(f.status == Status::skipped);
  CHECK(has(f.detail, "2 of 3 node pairs not run (b -> a, b -> c): the --matrix-budget of 21 s"));
  auto v = rules::node_matrix_view(m, {reached(40), not_run(), unreachable()});
  REQUIRE(v.cells.size() == 3);
  CHECK(v.cells[0].state == "reached");
  CHECK(v.cells[1].state == "not run");
  CHECK(v.cells[1].status == "skipped");
  CHECK(v.cells[2].state == "unreachable");
  CHECK(v.cells[2].prefill == "p-b");
  CHECK(v.cells[2].decode_node == "c");
  CHECK(rules::judge_node_matrix(rules::node_matrix({}), {}).status == Status::skipped);
}

TEST_CASE("engine NICs: UCX_NET_DEVICES, then --disaggregation-ib-device, then Active GPU-facing "
          "ports") {
  using rules::test::healthy_h100;
  auto env = rules::engine_nics(healthy_h100().facts(), {}, {"mlx5_0"});
  CHECK(env.source == "UCX_NET_DEVICES");
  CHECK(env.nics == std::vector<std::string>{"mlx5_0:1", "mlx5_1:1", "mlx5_4:1", "mlx5_5:1",
                                             "mlx5_6:1", "mlx5_7:1", "mlx5_8:1", "mlx5_9:1"});
  auto no_env = healthy_h100().set("transport_env", "UCX_TLS=rc,cuda_copy\n");
  auto sglang = rules::engine_nics(no_env.facts(), {}, {"mlx5_4", "mlx5_0", "mlx5_4", "mlx5_99"});
  CHECK(sglang.source == "--disaggregation-ib-device");
  CHECK(sglang.nics == std::vector<std::string>{"mlx5_4:1", "mlx5_0:1", "mlx5_99:1"});
  auto active = rules::engine_nics(no_env.facts(), {}, {});
  CHECK(active.source == "Active GPU-facing ports");
  CHECK(active.nics == std::vector<std::string>{"mlx5_0:1", "mlx5_1:1", "mlx5_4:1", "mlx5_5:1",
                                                "mlx5_6:1", "mlx5_7:1", "mlx5_8:1", "mlx5_9:1"});
}
