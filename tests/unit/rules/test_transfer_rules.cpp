#include <doctest/doctest.h>

#include "rules/transfer_rules.hpp"

using namespace icheck;
using report::Status;

namespace {

// synthetic: nixlbench's current results table (tests/fixtures/transfer/README.md)
std::string bench_table(const char* gbs) {
  return std::string("Block Size (B)      Batch Size     B/W (GB/Sec)   Avg Lat. (us)\n"
                     "67108864            1              ") + gbs + "       3.1\n";
}

rules::TransferOutcome outcome(std::string out) {
  rules::TransferOutcome o;
  o.tool = rules::TestTool::nixlbench_asio;
  o.prefill = "p";
  o.decode = "d";
  o.listener = {true, 0, false, std::move(out), "", ""};
  o.initiator = {true, 0, false, "", "", ""};
  return o;
}

}  // namespace

TEST_CASE("transfer: >= 50 % of line rate is ok and counts as a transfer") {
  auto f = rules::judge_transfer(outcome(bench_table("45.2")), 400.0);  // 50 GB/s line
  CHECK(f.status == Status::ok);
  CHECK(f.is_transfer);
  CHECK(f.layer == report::Layer::nixl);
  CHECK(f.detail == "nixlbench (ASIO) p <-> d: 45.2 GB/s (90 % of 50.0 GB/s line rate)");
}

TEST_CASE("transfer: above one port's line rate says what carried it") {
  auto f = rules::judge_transfer(outcome(bench_table("84.5")), 400.0);
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "nixlbench (ASIO) p <-> d: 84.5 GB/s (169 % of 50.0 GB/s line rate of one port: "
                    "several rails or NVLink carried it)");
  CHECK(rules::judge_transfer(outcome(bench_table("52.0")), 400.0).detail ==
        "nixlbench (ASIO) p <-> d: 52.0 GB/s (104 % of 50.0 GB/s line rate)");
}

TEST_CASE("transfer: between TCP class and half line rate warns") {
  auto f = rules::judge_transfer(outcome(bench_table("12.0")), 400.0);
  CHECK(f.status == Status::warn);
  CHECK_FALSE(f.is_transfer);
}

TEST_CASE("transfer: below 3 GB/s fails as TCP fallback") {
  auto f = rules::judge_transfer(outcome(bench_table("1.2")), 400.0);
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with("KV transfer falls back to TCP"));
}

TEST_CASE("transfer: one node or unknown line rate is at most a warning") {
  auto o = outcome(bench_table("45.2"));
  CHECK(rules::judge_transfer(o, std::nullopt).status == Status::warn);
  o.cross_node = false;
  CHECK(rules::judge_transfer(o, 400.0).status == Status::warn);
}

TEST_CASE("transfer: a test that did not start or finish is skipped with its error") {
  auto o = outcome("");
  o.initiator.timed_out = true;
  o.initiator.exit_code = -1;
  auto t = rules::judge_transfer(o, 400.0);
  CHECK(t.status == Status::skipped);
  CHECK(t.detail == "transfer test did not complete: prefill side did not finish within 60 s");
  auto e = outcome("Failed to synchronize at start barrier\n");
  e.listener.exit_code = 1;
  CHECK(rules::judge_transfer(e, 400.0).detail ==
        "transfer test did not complete: decode side: etcd: Failed to synchronize at start barrier");
  auto k = outcome("");
  k.initiator = {true, 1, false, "", "error: unable to upgrade connection: container not found (\"main\")\nmore", ""};
  CHECK(rules::judge_transfer(k, 400.0).detail ==
        "transfer test did not complete: prefill side exited 1: error: unable to upgrade connection: container not found (\"main\")");
  auto b = outcome("");  // busybox `timeout` in the pod: the command dies of its SIGTERM
  b.listener.exit_code = 143;
  CHECK(rules::judge_transfer(b, 400.0).detail ==
        "transfer test did not complete: decode side did not finish within 60 s (ended by SIGTERM, exit 143)");
  auto n = outcome("");
  n.listener.ran = false;
  n.listener.start_error = "kubectl not found";
  CHECK(rules::judge_transfer(n, 400.0).status == Status::skipped);
}

TEST_CASE("transfer: ucx_perftest MB/s from the client, converted") {
  rules::TransferOutcome o = outcome("");
  o.tool = rules::TestTool::ucx_perftest;
  o.initiator.out =
      "| bandwidth (MB/s) |\nFinal:   100   0.2  10.0  10.0   24000.00   23000.00   5   5\n";
  auto f = rules::judge_transfer(o, 200.0);  // 25 GB/s line
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "ucx_perftest p <-> d: 23.0 GB/s (92 % of 25.0 GB/s line rate)");
}

TEST_CASE("transfer: nixl_test passing is ok but not line-rate evidence") {
  auto o = outcome("");
  o.tool = rules::TestTool::nixl_test;
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::ok);
  CHECK_FALSE(f.is_transfer);
}

TEST_CASE("transfer: line rate is the slowest Active traffic port") {
  probe::NodeFacts facts;
  facts.sysfs_infiniband = true;
  probe::IbDevice a;
  a.name = "mlx5_0";
  probe::IbPort pa;
  pa.device = "mlx5_0";
  pa.port = 1;
  pa.state = probe::PortState::active;
  pa.phys_state = probe::PhysState::linkup;
  pa.rate_gbps = 400;
  pa.link_layer = probe::LinkLayer::infiniband;
  a.ports = {pa};
  auto b = a;
  b.name = "mlx5_1";
  b.ports[0].device = "mlx5_1";
  b.ports[0].rate_gbps = 200;
  auto c = a;
  c.name = "mlx5_2";
  c.ports[0].device = "mlx5_2";
  c.ports[0].rate_gbps = 100;
  c.ports[0].state = probe::PortState::down;
  facts.sysfs_devices = {a, b, c};
  CHECK(rules::kv_line_rate_gbps(facts, {}) == 200.0);
  CHECK_FALSE(rules::kv_line_rate_gbps(probe::NodeFacts{}, {}));
}

TEST_CASE("transfer: an absurd figure (1e38 GB/s) never prints a negative percentage") {
  auto f = rules::judge_transfer(outcome(bench_table("1e38")), 400.0);
  CHECK(f.detail.find("(> 1000000 % of 50.0 GB/s line rate") != std::string::npos);
  CHECK(f.detail.find("(-") == std::string::npos);
}
