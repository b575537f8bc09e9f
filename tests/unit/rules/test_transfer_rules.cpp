#include "../probe/fixture.hpp"
#include "rules/transfer/transfer_rules.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using report::Layer;
using report::Status;

namespace {

// synthetic: nixlbench's current results table (tests/fixtures/transfer/README.md)
std::string bench_table(const char* gbs) {
  return std::string("Block Size (B)      Batch Size     B/W (GB/Sec)   Avg Lat. (us)\n"
                     "67108864            1              ") +
         gbs + "       3.1\n";
}

rules::SideOutput side(std::string out, int exit_code = 0) {
  rules::SideOutput s;
  s.ran = true;
  s.exit_code = exit_code;
  s.out = std::move(out);
  return s;
}

rules::TransferOutcome outcome(std::string out) {
  rules::TransferOutcome o;
  o.tool = rules::TestTool::nixlbench_asio;
  o.prefill = "p";
  o.decode = "d";
  o.listener = side(std::move(out));
  o.initiator = side("");
  return o;
}

// A real failure output on one side (the other side ended at the remote `timeout`).
rules::TransferOutcome failed_with(const char* fixture, bool on_listener, rules::TestTool tool) {
  auto o = outcome("");
  o.tool = tool;
  auto& failing = on_listener ? o.listener : o.initiator;
  auto& other = on_listener ? o.initiator : o.listener;
  failing = side(probe::test::fixture(std::string("transfer/") + fixture), 1);
  other = side("", 124);
  return o;
}

} // namespace

TEST_CASE("transfer: >= 50 % of line rate is ok and counts as a transfer") {
  auto f = rules::judge_transfer(outcome(bench_table("45.2")), 400.0); // 50 GB/s line
  CHECK(f.status == Status::ok);
  CHECK(f.is_transfer);
  CHECK(f.layer == Layer::nixl);
  CHECK(f.detail == "nixlbench (ASIO) p -> d: 45.2 GB/s (90 % of 50.0 GB/s line rate)");
  auto named = outcome(bench_table("45.2"));
  named.prefill_node = "gpu-a";
  named.decode_node = "gpu-b";
  CHECK(
      rules::judge_transfer(named, 400.0).detail ==
      "nixlbench (ASIO) p (node gpu-a) -> d (node gpu-b): 45.2 GB/s (90 % of 50.0 GB/s line rate)");
}

TEST_CASE("transfer: above one port's line rate says what carried it") {
  auto f = rules::judge_transfer(outcome(bench_table("84.5")), rules::PairRates{400.0, 3200.0});
  CHECK(f.status == Status::ok);
  CHECK(rules::judge_transfer(outcome(bench_table("84.5")), 400.0).status ==
        Status::warn); // sum unknown
  CHECK(f.detail == "nixlbench (ASIO) p -> d: 84.5 GB/s (169 % of 50.0 GB/s line rate of one port: "
                    "several rails or NVLink carried it)");
  CHECK(rules::judge_transfer(outcome(bench_table("52.0")), 400.0).detail ==
        "nixlbench (ASIO) p -> d: 52.0 GB/s (104 % of 50.0 GB/s line rate)");
}

TEST_CASE("transfer: between TCP class and half line rate warns") {
  auto f = rules::judge_transfer(outcome(bench_table("12.0")), 400.0);
  CHECK(f.status == Status::warn);
  CHECK(f.is_transfer);
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

TEST_CASE("transfer: a figure above what the pair's ports carry is implausible, never ok") {
  // two 400 Gb/s KV ports on the smaller side carry 100 GB/s together
  auto f = rules::judge_transfer(outcome(bench_table("180.0")), rules::PairRates{400.0, 800.0});
  CHECK(f.status == Status::warn);
  CHECK(f.detail ==
        "implausible figure: nixlbench (ASIO) p -> d: 180.0 GB/s is more than the pair's KV "
        "ports carry (100.0 GB/s together)");
  auto huge = rules::judge_transfer(outcome(bench_table("1e38")), rules::PairRates{400.0, 800.0});
  CHECK(huge.status == Status::warn);
  CHECK(huge.detail.find("(-") == std::string::npos);
  // without the sum, a huge figure still prints no negative percentage
  auto unbounded = rules::judge_transfer(outcome(bench_table("1e38")), 400.0);
  CHECK(unbounded.status == Status::warn);
  CHECK(unbounded.detail.find("> 1000000 %") != std::string::npos);
  CHECK(unbounded.detail.find("(-") == std::string::npos);
  for (const char* bad : {"0", "-5.0", "nan", "inf"}) {
    CAPTURE(bad);
    auto g = rules::judge_transfer(outcome(bench_table(bad)), rules::PairRates{400.0, 800.0});
    CHECK(g.status == Status::warn);
    CHECK(g.detail.starts_with("implausible figure"));
  }
  CHECK(
      rules::judge_transfer(outcome(bench_table("45.2")), rules::PairRates{400.0, 800.0}).status ==
      Status::ok);
}

TEST_CASE("transfer: each error class fails at the layer it names, with its line") {
  using T = rules::TestTool;
  struct Case {
    const char* fixture;
    bool on_listener;
    T tool;
    Layer layer;
    const char* says;
  };
  const Case cases[] = {
      {"ucx_perftest/fail-client-destination-unreachable-bond-partial-ucx10738.txt", false,
       T::ucx_perftest, Layer::ucx, "destination unreachable: prefill side: [1750835683.514002]"},
      {"nixlbench/fail-create-backend-ucx-not-found-etcd-nixl1561.txt", true, T::nixlbench_asio,
       Layer::nixl,
       "NIXL backend missing: decode side: E0421 11:56:59.774282  709103 nixl_agent.cpp:259] "
       "getPluginParams"},
      {"nixl_test/python-api-test-create-backend-nixl-err-backend-nixl96.txt", false, T::nixl_test,
       Layer::nixl, "NIXL error: prefill side: nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND"},
      {"ucx_perftest/fail-server-ud-create-ah-address-not-valid-ucx9953.txt", true, T::ucx_perftest,
       Layer::rdma_access, "verbs call failed: decode side: [1718224849.578624]"},
      {"nixl_worker/ibv-create-ah-ud-timeout-nixl-err-backend-partial-dynamo814.txt", false,
       T::nixlbench_asio, Layer::rdma_access,
       "verbs call failed: prefill side: [1745563465.856286]"},
      {"nixl_test/nixl-test-cpp-target-ucx-module-load-errors-partial-nixl299.txt", true,
       T::nixl_test, Layer::ucx, "UCX error: decode side: [1747186205.897557]"},
      {"nixlbench/fail-ucx-mt-assertion-proto-select-num-threads-4-partial-nixl636.txt", false,
       T::nixlbench_asio, Layer::ucx, "assertion failed: prefill side:"},
      {"ucx_perftest/fail-unsupported-memory-type-cuda-managed-jenkins-old-format-ucx-pr4418.txt",
       false, T::ucx_perftest, Layer::ucx, "unsupported memory type: prefill side:"},
  };
  for (const auto& c : cases) {
    const std::string file = c.fixture;
    CAPTURE(file);
    auto f = rules::judge_transfer(failed_with(c.fixture, c.on_listener, c.tool), 400.0);
    CHECK(f.status == Status::fail);
    CHECK(f.layer == c.layer);
    CHECK(f.is_transfer);
    CHECK(f.detail.find(c.says) != std::string::npos);
  }
}

TEST_CASE("transfer: connection refused fails only once the listener was up") {
  const char* refused = "ucx_perftest/fail-client-connect-refused-rte-transport-ucx9908.txt";
  auto up = failed_with(refused, false, rules::TestTool::ucx_perftest);
  up.listener = side("Waiting for connection...\n", 124); // the server listened until its timeout
  auto f = rules::judge_transfer(up, 400.0);
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::ucx);
  CHECK(f.detail.find(
            "connection refused: prefill side: perftest.c:430  UCX  ERROR client failed.") !=
        std::string::npos);
  auto down = up;
  down.listener = side("", 127); // the server never ran
  down.listener.err = "sh: ucx_perftest: not found";
  auto s = rules::judge_transfer(down, 400.0);
  CHECK(s.status == Status::skipped);
  CHECK(s.detail.starts_with("transfer test did not connect: the decode side was not listening"));
}

TEST_CASE("transfer: connected and then no result before the deadline fails, with the causes") {
  auto o = outcome("Waiting for connection...\nAccepted connection from 10.0.0.1:58400\n");
  o.tool = rules::TestTool::ucx_perftest;
  o.listener.exit_code = 124;
  o.initiator = side("", 124);
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::nixl);
  CHECK(f.detail == "ucx_perftest p -> d connected, then no result within 60 s: data did not move: "
                    "typical of PCIe ACS/IOMMU blocking GPUDirect P2P, or a RoCE GID/route problem "
                    "(UCX_IB_GID_INDEX, UCX_IB_ADDR_TYPE)");
  // nixlbench's first barrier passed, then the ASIO runtime timed out waiting for the peer
  // (synthetic: libstdc++'s uncaught-exception lines around the ASIO runtime's error text)
  auto b =
      outcome("All processes are ready to proceed\nterminate called after throwing an instance of "
              "'std::runtime_error'\n  what():  ASIO Receive timeout\n");
  b.listener.exit_code = 134;
  CHECK(rules::judge_transfer(b, 400.0).status == Status::fail);
}

TEST_CASE("transfer: never connected is skipped with why") {
  auto o = outcome("ASIO runtime bind/listen error -- using connect() instead\n");
  o.listener.exit_code = 124;
  o.initiator = side("", 124);
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail ==
        "transfer test never connected within 60 s (last line: ASIO runtime bind/listen error -- "
        "using connect() instead)");
  auto e = outcome("Failed to synchronize at start barrier\n");
  e.listener.exit_code = 1;
  CHECK(rules::judge_transfer(e, 400.0).detail ==
        "transfer test did not complete: decode side: Failed to synchronize at start barrier");
  auto n = outcome("");
  n.listener.ran = false;
  n.listener.start_error = "container \"main\" not found in pod \"d\"";
  CHECK(rules::judge_transfer(n, 400.0).detail ==
        "decode side did not start: container \"main\" not found in pod \"d\"");
  CHECK(rules::judge_transfer(n, 400.0).status == Status::skipped);
}

TEST_CASE("transfer: unknown output with a non-zero exit fails with its last lines, never ok") {
  auto o = outcome("");
  o.initiator = side("step one\nstep two\n\nstep three\nsomething odd happened\n", 3);
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::nixl);
  CHECK(f.detail == "nixlbench (ASIO) p -> d: prefill side exited 3: step two | step three | "
                    "something odd happened");
  auto clean = outcome("nothing to see\n"); // exit 0, no figure: not ok either
  CHECK(rules::judge_transfer(clean, 400.0).status == Status::skipped);
}

TEST_CASE("transfer: ucx_perftest MB/s from the client, converted") {
  rules::TransferOutcome o = outcome("");
  o.tool = rules::TestTool::ucx_perftest;
  o.initiator.out =
      "| bandwidth (MB/s) |\nFinal:   100   0.2  10.0  10.0   24000.00   23000.00   5   5\n";
  auto f = rules::judge_transfer(o, 200.0); // 25 GB/s line
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "ucx_perftest p -> d: 23.0 GB/s (92 % of 25.0 GB/s line rate)");
}

TEST_CASE("transfer: nixl_test passing warns: host memory only, not line-rate evidence") {
  auto o = outcome("");
  o.tool = rules::TestTool::nixl_test;
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::warn);
  CHECK(f.detail ==
        "nixl_test p -> d passed with host memory only: GPUDirect and bandwidth not tested");
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
  CHECK(rules::kv_ports_sum_gbps(facts, {}) == 600.0);
  // a 400 Gb/s adapter whose port trained down to 200 is judged against 400
  facts.sysfs_devices[1].ports[0].expected_gbps = 400;
  CHECK(rules::kv_line_rate_gbps(facts, {}) == 400.0);
  CHECK(rules::kv_ports_sum_gbps(facts, {}) == 800.0);
  CHECK_FALSE(rules::kv_line_rate_gbps(probe::NodeFacts{}, {}));
}

TEST_CASE("transfer: an absurd figure (1e38 GB/s) never prints a negative percentage") {
  auto f = rules::judge_transfer(outcome(bench_table("1e38")), 400.0);
  CHECK(f.detail.find("(> 1000000 % of 50.0 GB/s line rate") != std::string::npos);
  CHECK(f.detail.find("(-") == std::string::npos);
}

TEST_CASE("transfer: a 1e38 MB/s figure prints whole in the verdict's pairs line, never cut") {
  // The slowest-pair line printed "%.1f" into 32 bytes: 1e35 GB/s came out as 31 digits.
  CHECK(rules::gbs_text(1e35) == "1e+35 GB/s");
  CHECK(rules::gbs_text(48.0) == "48.0 GB/s");
  CHECK(rules::gbs_text(-1e300) == "-1e+300 GB/s");
  const auto measured = rules::transfer_gbps(outcome(bench_table("1e38")));
  REQUIRE(measured);
  CHECK(rules::gbs_text(*measured).find("e+") != std::string::npos);
}
