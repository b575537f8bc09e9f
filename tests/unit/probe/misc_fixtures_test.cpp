// misc/ fixtures with no parser of their own: each keeps the key line a parser or a later rule
// (dmesg, modprobe, DCGM, perftest, UCX debug logs) would use; transfer/ fixtures belong to the
// transfer issue and are only checked to be present here.
#include <doctest/doctest.h>

#include <filesystem>

#include "fixture.hpp"
#include "probe/parsers.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;
using icheck::probe::test::raw_file;

namespace {
bool has(const std::string& rel, const std::string& line) { return fixture(rel).find(line) != std::string::npos; }
}  // namespace

TEST_CASE("misc: key lines") {
  CHECK(has("misc/dcgmi-diag-r2-pcie-fail-nvlink-down-on-non-nvlink-a100.txt", "NvLink link 0 is currently down"));
  CHECK(has("misc/dcgmi-nvlink-link-status-all-down-and-diag-r2-pass.txt", "dcgmi nvlink --link-status"));
  CHECK(has("misc/dmesg-nvidia-peermem-invalid-context.txt",
            "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context"));
  CHECK(has("misc/gdrdrv-load-dmesg-and-modinfo.txt", "gdrdrv:gdrdrv_init:device registered with major number 490"));
  CHECK(has("misc/memory-peers-nv-mem-version-missing.txt", "GPU Direct RDMA Disabled for HCA 0 'mlx5_0'"));
  CHECK(has("misc/nv-peer-mem-unknown-symbol-modprobe.txt", "could not insert 'nv_peer_mem': Unknown symbol in module"));
  CHECK(has("misc/nvidia-peermem-insert-fails-gb300-gpu-operator.txt",
            "nvidia_peermem: disagrees about version of symbol ib_register_peer_memory_client"));
  CHECK(has("misc/perftest-did-not-detect-devices-rdma-shared-dev-plugin.txt", "Did not detect devices"));
  CHECK(has("misc/ucx-cuda-ipc-no-nvlink-and-intranode-cfg-nixl1097.txt", "cuda-ipc get zcopy disabled as no nvlinks detected"));
  CHECK(has("misc/ucx-debug-gdr-detected-via-memory-peers.txt", "mlx5_1: cuda GPUDirect RDMA is detected by checking /sys/k"));
}

TEST_CASE("every fixture starts with its source line (or says what it is synthetic of)") {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& e : fs::recursive_directory_iterator(std::string(ICHECK_TEST_DATA) + "/fixtures")) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    auto rel = fs::relative(e.path(), std::string(ICHECK_TEST_DATA) + "/fixtures").string();
    if (rel.rfind("kube/", 0) == 0) continue;  // another engineer's fixtures
    // An invented output says which real format it follows instead.
    auto head = raw_file(rel);
    CHECK_MESSAGE((head.rfind("# source:", 0) == 0 || head.rfind("# synthetic:", 0) == 0), rel);
    ++count;
  }
  CHECK(count >= 115);  // the copies tests/fixtures holds (ibstatus dropped: nothing reads it)
}
