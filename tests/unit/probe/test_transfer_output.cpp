// Every transfer-tool fixture, with the numbers and failures it must give. A fixture added to
// tests/fixtures/transfer without a row here fails the last case.
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "fixture.hpp"
#include "probe/transfer/transfer_output.hpp"

using namespace icheck::probe;
using K = TransferFailureKind;

namespace {

struct Expect {
  const char* file;
  K failure;
  const char* failure_line;          // prefix of the reported line ("" with none)
  bool connected;                    // shows the two sides reached each other
  int nixlbench_rows;
  std::optional<double> nixlbench_gbs;  // at the largest block size
  int perftest_rows;
  bool perftest_final;
  std::optional<double> perftest_mbs;
};

// One row per fixture: a table.
// clang-format off
const Expect kExpect[] = {
    // nixlbench
    {"nixlbench/ci-jenkins-timestamped-ucx-dram-two-workers-etcd-nixl1999.txt", K::none, "", true, 1, 4.524677, 0, false, {}},
    {"nixlbench/container-preamble-then-etcd-connect-partial-nixl922.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"nixlbench/fail-create-backend-ucx-not-found-etcd-nixl1561.txt", K::backend_missing, "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found", false, 0, {}, 0, false, {}},
    {"nixlbench/fail-etcd-start-barrier-sync-nixl1022.txt", K::etcd, "Error in barrier wait", false, 0, {}, 0, false, {}},
    {"nixlbench/fail-etcd-target-uri-not-valid-nixl1044.txt", K::etcd, "Failed to store agent target prefix key in etcd", false, 0, {}, 0, false, {}},
    {"nixlbench/fail-ucx-mt-assertion-proto-select-num-threads-4-partial-nixl636.txt", K::assertion, "[nixl-2:1886795:0:1886972] proto_select.c:549", false, 0, {}, 0, false, {}},
    {"nixlbench/old-6col-format-mpirun-vram-2gpu-single-node-partial-nixl-pr115.txt", K::none, "", true, 7, 84.4766, 0, false, {}},
    {"nixlbench/old-70star-config-banner-vram-to-dram-partial-nixl-pr325.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"nixlbench/storage-gds-kvbench-null-runtime-single-row-nixl1332.txt", K::none, "", true, 1, 9.711935, 0, false, {}},
    {"nixlbench/tcpxo-a3mega-vram-read-4threads-table-only-partial-nixl-pr2276.txt", K::none, "", true, 3, 0.105219, 0, false, {}},
    // ucx_perftest
    {"ucx_perftest/fail-client-connect-refused-rte-transport-ucx9908.txt", K::connection_refused, "perftest.c:430  UCX  ERROR client failed", false, 0, {}, 0, false, {}},
    {"ucx_perftest/fail-client-destination-unreachable-bond-partial-ucx10738.txt", K::unreachable, "[1750835683.514002] [TENCENT64:1392 :0]          select.c:649  UCX  ERROR   no active messages transport", true, 0, {}, 0, false, {}},
    {"ucx_perftest/fail-m-cuda-prints-usage-no-cuda-support-ucx3156.txt", K::usage, "Usage: ucx_perftest", false, 0, {}, 0, false, {}},
    {"ucx_perftest/fail-server-tag-bw-cuda-assertion-rndv-frag-dgx1-ucx8639.txt", K::assertion, "[dgx13:15805:0:15805]        rndv.c:2456 Assertion", true, 0, {}, 0, false, {}},
    {"ucx_perftest/fail-server-ud-create-ah-address-not-valid-ucx9953.txt", K::verbs, "[1718224849.578624]", true, 0, {}, 0, false, {}},
    {"ucx_perftest/fail-unsupported-memory-type-cuda-managed-jenkins-old-format-ucx-pr4418.txt", K::unsupported_memory, "05:01:27 [1573268487.398584]", true, 0, {}, 0, false, {}},
    {"ucx_perftest/interleaved-lines-mixed-tag-bw-cuda-4xh100-partial-ucxpy1088.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"ucx_perftest/interleaved-server-client-tag-bw-cuda-blackwell-rtx-partial-ucx-pr11865.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"ucx_perftest/mid-format-stage-typical-tag-bw-ipoib-ucx5252.txt", K::none, "", true, 0, {}, 4, false, 549.48},
    {"ucx_perftest/old-format-tag-bw-cuda-ib-rc-dgx1-ucxpy-docs.txt", K::none, "", true, 0, {}, 1, false, 10474.41},
    {"ucx_perftest/old-format-tag-bw-cuda-nvlink-cuda-ipc-dgx1-ucxpy-docs.txt", K::none, "", true, 0, {}, 1, false, 22904.52},
    {"ucx_perftest/old-format-ucp-put-bw-tcp-unlabelled-rows-ucx5396.txt", K::none, "", true, 0, {}, 4, false, 27.86},
    {"ucx_perftest/tag-bw-cuda-rc-two-nodes-fluctuating-thread-rows-ucx10164.txt", K::none, "", true, 0, {}, 6, false, 5540.74},
    {"ucx_perftest/tag-bw-host-bond-roce-thread-and-final-ucx10649.txt", K::none, "", true, 0, {}, 2, true, 46743.62},
    {"ucx_perftest/test-column-variant-ucp-am-bw-tcp-lo-final-only-ucx7880.txt", K::none, "", true, 0, {}, 1, true, 4562.94},
    {"ucx_perftest/ucx-1.17-ucp-get-rocm-roce400g-latency-header.txt", K::none, "", true, 0, {}, 7, false, 26975.44},
    {"ucx_perftest/ucx-1.17-ucp-put-bw-cuda-roce100g-client-proto-info.txt", K::none, "", true, 0, {}, 11, false, 14304.41},
    {"ucx_perftest/ucx-1.17-ucp-put-bw-host-roce-jitter.txt", K::none, "", true, 0, {}, 14, false, 3664.80},
    // Debian 12's UCX 1.13.1 (ucx-utils), run on a machine without RDMA or CUDA
    {"ucx_perftest/debian-1.13-client-tag-bw-host-loopback.txt", K::none, "", true, 0, {}, 1, true, 2609.53},
    {"ucx_perftest/debian-1.13-server-tag-bw-host-loopback.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"ucx_perftest/debian-1.13-fail-client-ucx-tls-rc-no-usable-transports.txt", K::ucx_error, "[1796202082.505309] [vm:5225 :0]     ucp_context.c:1276 UCX  ERROR no usable transports/devices", true, 0, {}, 0, false, {}},
    {"ucx_perftest/debian-1.13-fail-client-pinned-lo-server-eth0-destination-unreachable.txt", K::unreachable, "[1796303890.255511] [vm:3864 :0]          select.c:549  UCX  ERROR   no active messages transport", true, 0, {}, 0, false, {}},
    {"ucx_perftest/debian-1.13-fail-server-pinned-eth0-client-lo-destination-unreachable.txt", K::unreachable, "[1796303890.311392] [vm:3747 :0]          select.c:549  UCX  ERROR   no active messages transport", true, 0, {}, 0, false, {}},
    {"ucx_perftest/debian-1.13-fail-m-cuda-unsupported-memory-type-partial.txt", K::unsupported_memory, "[1796202090.065604] [vm:7325 :0] perftest_params.c:165  UCX  ERROR unsupported memory type", false, 0, {}, 0, false, {}},
    // NIXL examples and nixl_test: failures only
    {"nixl_test/blocking-send-recv-initiator-load-remote-md-invalid-param-h100-nixl103.txt", K::nixl_error, "nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM", false, 0, {}, 0, false, {}},
    {"nixl_test/blocking-send-recv-target-segfault-a100-partial-nixl420.txt", K::crash, "[ip-172-31-42-140:4137073:0:4137149] Caught signal 11", false, 0, {}, 0, false, {}},
    {"nixl_test/nixl-test-cpp-target-ucx-module-load-errors-partial-nixl299.txt", K::ucx_error, "[1747186205.897557]", false, 0, {}, 0, false, {}},
    {"nixl_test/python-api-test-create-backend-nixl-err-backend-nixl96.txt", K::nixl_error, "nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND", false, 0, {}, 0, false, {}},
    // the segfault is the cause; NIXL_ERR_REMOTE_DISCONNECT after it is the consequence
    {"nixl_test/python-two-peers-h100-cuda-ipc-segfault-remote-disconnect-nixl1042.txt", K::crash, "[h000:2722682:0:2722812] Caught signal 11", false, 0, {}, 0, false, {}},
    // a Dynamo worker's NIXL/UCX log: the lines nixlbench prints on the same fault
    {"nixl_worker/ibv-create-ah-ud-timeout-nixl-err-backend-partial-dynamo814.txt", K::verbs, "[1745563465.856286] [oneasia-gpu-node1:1617 :0]       ib_device.c:1332 UCX  ERROR   ibv_create_ah(", false, 0, {}, 0, false, {}},
    // the NIXL Python test (nixl_python_script.cpp): its own lines; numbers in test_nixl_python_output.cpp
    {"nixl_python/api-differs-decode.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"nixl_python/backend-error-decode.txt", K::nixl_error, "icheck-nixl: error: create agent with backend UCX: nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND", false, 0, {}, 0, false, {}},
    {"nixl_python/backend-error-prefill.txt", K::nixl_error, "icheck-nixl: error: create agent", false, 0, {}, 0, false, {}},
    {"nixl_python/corrupt-decode.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"nixl_python/corrupt-prefill.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"nixl_python/hang-decode.txt", K::stalled, "icheck-nixl: stalled: the prefill side's transfers did not finish within 8 s", true, 0, {}, 0, false, {}},
    {"nixl_python/hang-prefill.txt", K::stalled, "icheck-nixl: stalled: the first WRITE did not finish within 8 s", true, 0, {}, 0, false, {}},
    {"nixl_python/host-ok-decode.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"nixl_python/host-ok-prefill.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"nixl_python/vram-ok-decode.txt", K::none, "", true, 0, {}, 0, false, {}},
    {"nixl_python/vram-ok-prefill.txt", K::none, "", true, 0, {}, 0, false, {}},
    // ib_write_bw: failure detection only (no parser: the plugin does not run it)
    {"ib_write_bw/fail-client-socket-connect-refused-unable-to-init-perftest-pr228.txt", K::connection_refused, "Couldn't connect to 192.168.125.211:18515", false, 0, {}, 0, false, {}},
    {"ib_write_bw/fail-cuda-dmabuf-option-order-parser-error-perftest336.txt", K::usage, "Parser function exited with Error", false, 0, {}, 0, false, {}},
    {"ib_write_bw/fail-use-cuda-couldnt-allocate-mr-k80-server-perftest31.txt", K::verbs, "Couldn't allocate MR", false, 0, {}, 0, false, {}},
    {"ib_write_bw/fail-use-cuda-dmabuf-missing-couldnt-allocate-mr-error14-perftest346.txt", K::verbs, "Couldn't allocate MR with error=14", false, 0, {}, 0, false, {}},
    {"ib_write_bw/fail-use-cuda-rdma-cm-couldnt-allocate-mr-a30-vgpu-k8s-perftest126.txt", K::verbs, "Couldn't allocate MR", false, 0, {}, 0, false, {}},
    {"ib_write_bw/host-post-list-8b-60s-gbits-single-row-perftest273.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"ib_write_bw/host-server-mbsec-header-roce-partial-perftest234.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"ib_write_bw/use-cuda-a30-server-pcie-listing-ib-partial-perftest241.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"ib_write_bw/use-cuda-v100-roce-old-cuda-init-partial-perftest-pr21.txt", K::none, "", false, 0, {}, 0, false, {}},
    {"ib_write_bw/use-rocm-bidir-sweep-a-loopback-rst-indented-amd-docs.txt", K::none, "", false, 0, {}, 0, false, {}},
};
// clang-format on

}  // namespace

TEST_CASE("transfer fixtures: failure kind, nixlbench and ucx_perftest numbers") {
  for (const auto& e : kExpect) {
    const std::string file = e.file;
    CAPTURE(file);
    auto text = test::fixture(std::string("transfer/") + e.file);
    REQUIRE(!text.empty());
    auto failure = detect_transfer_failure(text);
    CHECK(failure.kind == e.failure);
    CHECK(failure.line.starts_with(e.failure_line));
    CHECK(shows_connected(text) == e.connected);
    auto bench = parse_nixlbench(text);
    CHECK(bench.rows.size() == static_cast<std::size_t>(e.nixlbench_rows));
    CHECK(bench.gb_per_s() == e.nixlbench_gbs);
    auto perf = parse_ucx_perftest(text);
    CHECK(perf.rows == e.perftest_rows);
    CHECK(perf.final_row == e.perftest_final);
    CHECK(perf.mb_per_s == e.perftest_mbs);
  }
}

TEST_CASE("every transfer fixture has an expectation") {
  std::set<std::string> listed;
  for (const auto& e : kExpect) listed.insert(e.file);
  auto root = std::filesystem::path(ICHECK_TEST_DATA) / "fixtures" / "transfer";
  int seen = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".txt") continue;
    auto rel = std::filesystem::relative(entry.path(), root).generic_string();
    CAPTURE(rel);
    CHECK(listed.count(rel) == 1);
    ++seen;
  }
  CHECK(seen == static_cast<int>(listed.size()));
}

TEST_CASE("nixlbench: the old table's B/W (GB/Sec) is its last column, not the MiB one") {
  auto r = parse_nixlbench(test::fixture(
      "transfer/nixlbench/old-6col-format-mpirun-vram-2gpu-single-node-partial-nixl-pr115.txt"));
  REQUIRE(r.rows.size() == 7);
  CHECK(r.rows.front().block_size == 4096);
  CHECK(r.rows.front().batch_size == 64);
  CHECK(r.rows.front().gb_per_s == 1.31554);
  CHECK(r.max_gb_per_s() == 84.4766);
}

TEST_CASE("nixlbench: largest block wins over a faster smaller block") {
  // synthetic: the current nixlbench table layout (see README), rows reordered
  auto r = parse_nixlbench(
      "Block Size (B)      Batch Size     B/W (GB/Sec)   Avg Lat. (us)\n"
      "----------------\n"
      "67108864            1              21.5           3.1\n"
      "1048576             1              23.0           1.0\n");
  CHECK(r.gb_per_s() == 21.5);
  CHECK(r.max_gb_per_s() == 23.0);
}

TEST_CASE("nixlbench: a size no long long holds is not a row (fuzz_transfer, UBSan "
          "float-cast-overflow)") {
  // synthetic: the current nixlbench table layout, sizes as the fuzzer found them
  auto r = parse_nixlbench("Block Size (B)      Batch Size     B/W (GB/Sec)   Avg Lat. (us)\n"
                           "32333333333333333333333333333333333 1    99.0           1.0\n"
                           "4096                nan            98.0           1.0\n"
                           "1048576             1              23.0           1.0\n");
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0].block_size == 1048576);
  CHECK(r.gb_per_s() == 23.0);
}

TEST_CASE("ucx_perftest: Final row wins over later progress rows, GB/s is MB/s / 1000") {
  // synthetic: the current ucx_perftest layout
  auto r = parse_ucx_perftest(
      "|    Stage     | # iterations | 50.0%ile | average | overall |  average |  overall |  average  |  overall  |\n"
      "| bandwidth (MB/s) |\n"
      "[thread 0]     50      0.2   10.0   10.0    20000.00   20000.00    5    5\n"
      "Final:        100      0.2   10.0   10.0    24000.00   23000.00    5    5\n");
  CHECK(r.final_row);
  CHECK(r.mb_per_s == 23000.00);
  CHECK(r.gb_per_s() == 23.0);
}

TEST_CASE("nothing to parse") {
  CHECK(detect_transfer_failure("").kind == K::none);
  CHECK_FALSE(parse_nixlbench("").gb_per_s());
  CHECK_FALSE(parse_ucx_perftest("").gb_per_s());
  CHECK(to_string(K::etcd) == "etcd");
}
