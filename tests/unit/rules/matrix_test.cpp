#include "../probe/fixture.hpp"
#include "pair_fixture.hpp"
#include "rules/transfer/matrix.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <set>

using namespace icheck;
using report::Status;
using rules::test::pair_pod;

namespace {

rules::TransferPlan perftest_pair(const std::string& prefill_node = "gpu-a01",
                                  const std::string& decode_node = "gpu-a02") {
  auto p = pair_pod("p", dynamo::Role::prefill, prefill_node, "10.0.1.5");
  auto d = pair_pod("d", dynamo::Role::decode, decode_node, "10.0.1.6");
  p.nixl.tools.ucx_perftest = d.nixl.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  rules::PairingOptions o;
  o.kubectl_base = {"kubectl"};
  return rules::plan_for(p, d, o);
}

const std::vector<std::string> kTwo = {"mlx5_0:1", "mlx5_1:1"};

std::vector<rules::MatrixCell> cells_2x2() {
  return rules::plan_matrix_cells(perftest_pair(), kTwo, kTwo);
}

// A cell whose transfer moved data at `gbps` (judged ok, as judge_transfer says at line rate).
rules::CellResult reached(double gbps) {
  rules::CellResult r;
  r.ran = true;
  r.gbps = gbps;
  r.finding.status = Status::ok;
  r.finding.detail = rules::gbs_text(gbps);
  return r;
}

// A cell that ran and never connected: the real UCX 1.13 "Destination is unreachable" of both
// sides, the client pinned to lo and the server to eth0 on this machine.
rules::CellResult unreachable() {
  rules::TransferOutcome o;
  o.tool = rules::TestTool::ucx_perftest;
  o.prefill = "p";
  o.decode = "d";
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

rules::CellResult budget_out() {
  rules::CellResult r;
  r.why_not = "the --matrix-budget of 6 s ran out before this cell";
  return r;
}

}  // namespace

TEST_CASE("matrix: a cell is the pair's test pinned to its two NICs on its own port") {
  auto cells = cells_2x2();
  REQUIRE(cells.size() == 4);
  std::set<int> ports;
  for (const auto& c : cells) {
    CHECK(c.not_pinnable.empty());
    ports.insert(c.port);
  }
  CHECK(ports.size() == 4);
  const auto& c = cells[1];  // row 0, column 1
  CHECK((c.row == 0 && c.col == 1 && c.prefill_nic == "mlx5_0:1" && c.decode_nic == "mlx5_1:1"));
  CHECK(c.plan.listener_command() ==
        "kubectl exec d -n dynamo -c main -- timeout 60 env UCX_NET_DEVICES=mlx5_1:1 "
        "/usr/local/ucx/bin/ucx_perftest -t tag_bw -m cuda -s 134217728 -n 100 -p 13338");
  CHECK(c.plan.initiator_command() ==
        "kubectl exec p -n dynamo -c main -- timeout 60 env UCX_NET_DEVICES=mlx5_0:1 "
        "/usr/local/ucx/bin/ucx_perftest 10.0.1.6 -t tag_bw -m cuda -s 134217728 -n 100 -p 13338");
  // The stdin-tied wrapper still finds `-- timeout N` and runs `env ...` as the tool.
  auto tied = rules::stdin_tied(c.plan.listener_argv);
  auto env = std::find(tied.begin(), tied.end(), "env");
  REQUIRE(env != tied.end());
  CHECK(*(env - 1) == "icheck-transfer");
}

TEST_CASE("matrix: waves hold cells on distinct NICs, and every cell once") {
  auto waves = rules::matrix_waves(cells_2x2(), 8);
  CHECK(waves == std::vector<std::vector<std::size_t>>{{0, 3}, {1, 2}});
  const std::vector<std::string> four = {"a:1", "b:1", "c:1", "d:1"};
  auto cells = rules::plan_matrix_cells(perftest_pair(), four, four);
  auto w = rules::matrix_waves(cells, 3);
  std::vector<std::size_t> seen;
  for (const auto& wave : w) {
    CHECK(wave.size() <= 3);
    std::set<std::string> rows, cols;
    for (auto i : wave) {
      CHECK(rows.insert(cells[i].prefill_nic).second);
      CHECK(cols.insert(cells[i].decode_nic).second);
      seen.push_back(i);
    }
  }
  std::sort(seen.begin(), seen.end());
  CHECK(seen.size() == 16);
  CHECK(std::unique(seen.begin(), seen.end()) == seen.end());
}

TEST_CASE("matrix: on one node a NIC that is a row and a column is one NIC") {
  auto cells = rules::plan_matrix_cells(perftest_pair("gpu-a01", "gpu-a01"), kTwo, kTwo);
  // (mlx5_0 -> mlx5_1) and (mlx5_1 -> mlx5_0) use the same two NICs: never in one wave; the
  // diagonal cells use one NIC each and may run together.
  CHECK(rules::matrix_waves(cells, 8) == std::vector<std::vector<std::size_t>>{{0, 3}, {1}, {2}});
}

TEST_CASE("matrix: a tool that cannot be pinned gives cells that say so") {
  auto p = pair_pod("p", dynamo::Role::prefill, "a", "10.0.1.5");
  auto d = pair_pod("d", dynamo::Role::decode, "b", "10.0.1.6");
  p.nixl.tools.nixl_test = d.nixl.tools.nixl_test = "/usr/bin/nixl_test";
  auto cells = rules::plan_matrix_cells(rules::plan_for(p, d, {}), kTwo, kTwo);
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].not_pinnable.find("cannot be pinned") != std::string::npos);
  CHECK(rules::pin_argv({"kubectl", "exec", "x"}, "mlx5_0:1", 1).empty());
}

TEST_CASE("matrix judge: a healthy 2x2 is ok and names its slowest cell") {
  auto f = rules::judge_matrix(
      cells_2x2(), {reached(46.1), reached(45.0), reached(47.2), reached(46.0)}, kTwo, kTwo);
  CHECK(f.status == Status::ok);
  CHECK(f.is_transfer);
  CHECK(f.layer == report::Layer::nixl);
  CHECK(f.detail == "NIC matrix 2x2: slowest cell mlx5_0:1 -> mlx5_1:1: 45.0 GB/s");
}

TEST_CASE("matrix judge: only the diagonal connecting is a rail-isolated fabric") {
  auto f = rules::judge_matrix(
      cells_2x2(), {reached(46.1), unreachable(), unreachable(), reached(46.0)}, kTwo, kTwo);
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with(
      "NIC matrix 2x2: rail-isolated fabric: each prefill NIC reaches only the decode NIC of its "
      "own rail (mlx5_0:1 -> mlx5_0:1, mlx5_1:1 -> mlx5_1:1); the engine assumes any NIC reaches "
      "any NIC (kvcache-ai/Mooncake #166"));
  CHECK(f.next.find("--matrix rails") != std::string::npos);
}

TEST_CASE("matrix judge: a NIC that reaches none fails naming it") {
  auto f = rules::judge_matrix(
      cells_2x2(), {reached(46.1), reached(46.0), unreachable(), unreachable()}, kTwo, kTwo);
  CHECK(f.status == Status::fail);
  CHECK(f.detail.find("prefill NIC mlx5_1:1 reaches none of decode's NICs (mlx5_0:1, mlx5_1:1)") !=
        std::string::npos);
  CHECK(f.detail.find("rail-isolated") == std::string::npos);
}

TEST_CASE("matrix judge: one slow rail warns naming it") {
  auto f = rules::judge_matrix(
      cells_2x2(), {reached(46.1), reached(45.8), reached(11.0), reached(12.0)}, kTwo, kTwo);
  CHECK(f.status == Status::warn);
  CHECK(f.detail.find("slow rail: prefill NIC mlx5_1:1 moves 11.5 GB/s against 46.0 GB/s on the "
                      "other prefill NICs") != std::string::npos);
  CHECK(f.detail.find("decode NIC") == std::string::npos);  // the columns are alike
}

TEST_CASE("matrix judge: cells the budget left are skipped, never ok") {
  auto f = rules::judge_matrix(
      cells_2x2(), {reached(46.1), budget_out(), budget_out(), reached(46.0)}, kTwo, kTwo);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail.find("2 of 4 cells not run (mlx5_0:1 -> mlx5_1:1, mlx5_1:1 -> mlx5_0:1): the "
                      "--matrix-budget of 6 s ran out") != std::string::npos);
  // A failing cell outranks the skipped ones.
  auto g = rules::judge_matrix(
      cells_2x2(), {reached(46.1), unreachable(), budget_out(), budget_out()}, kTwo, kTwo);
  CHECK(g.status == Status::fail);
  CHECK(g.detail.find("cannot connect: mlx5_0:1 -> mlx5_1:1") != std::string::npos);
}

TEST_CASE("matrix judge: no NIC on a side is skipped") {
  auto f = rules::judge_matrix({}, {}, {}, kTwo);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail.find("no cell to test") != std::string::npos);
}
