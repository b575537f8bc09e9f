// The ucx layer's transports for KV: RC or DC on the pod's devices (UD alone is no RDMA for KV),
// a device without an SRQ (sgl-project/sglang #30099), and UCX_TLS keeping cuda_copy
// (NVIDIA/TensorRT-LLM #18373). Facts built through the probe's own parser (test_node_fixture.hpp).
#include "../test_node_fixture.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

// ucx_info -d of a UCX that lists only UD on the RDMA devices (what UCX shows for a NIC whose
// RC transport cannot open: rc_verbs needs an SRQ).
std::string ucx_ud_only(const std::vector<std::string>& devs) {
  std::string t = ucx_tcp_only();
  for (const auto& d : devs)
    t += ucx_md(d, "ib", "host (access,reg,cache), cuda (reg,cache)",
                {{"ud_verbs", d + ":1"}, {"ud_mlx5", d + ":1"}});
  return t;
}

// ibv_devinfo -v's hca_id and max_srq lines for the healthy H100's HCAs, the ones named having 0.
std::string ibv_caps(const std::vector<std::string>& without_srq) {
  std::string t;
  for (const auto& d : h100_nics()) {
    const bool none = std::find(without_srq.begin(), without_srq.end(), d) != without_srq.end();
    t += "hca_id:\t" + d + "\n\tmax_srq:\t\t\t" + (none ? "0" : "8388608") + "\n";
  }
  return t + "rc=0\n";
}

std::vector<std::string> all_nics() {
  return h100_nics();
}

}  // namespace

TEST_CASE("transports: UD alone on the RDMA devices is no RDMA for KV: fail, not ok") {
  auto p = healthy_h100();
  p.set("ucx_info_d", ucx_ud_only({"mlx5_0", "mlx5_1"}));
  auto f = find(judge(p), "transports");
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::ucx);
  CHECK(f.detail.starts_with(
      "no RC or DC for KV: ucx_info -d lists only ud_verbs, ud_mlx5 for RDMA"));
  CHECK(contains(f.detail, "NIXL's UCX backend cannot move KV over RDMA"));
  CHECK(contains(f.next, "ucx_info -d | grep -E 'Transport: (rc|dc)'"));
  // ibv_devinfo -v says why: the devices have no SRQ for UCX's RC to open.
  p.set("ibv_caps", ibv_caps(all_nics()));
  // (the BlueField bond carries no KV traffic: not judged)
  CHECK(contains(find(judge(p), "transports").detail,
                 "move KV over RDMA; mlx5_0, mlx5_1, mlx5_4, mlx5_5, mlx5_6, "
                 "mlx5_7, mlx5_8, mlx5_9 report max_srq 0 (ibv_devinfo -v)"));
}

TEST_CASE("transports: healthy (RC and DC listed, every device with an SRQ) is ok and says no UD") {
  auto p = healthy_h100();
  p.set("ibv_caps", ibv_caps({}));
  auto f = find(judge(p), "transports");
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "rc_mlx5, dc_mlx5 on 2 devices (mlx5_0:1, mlx5_1:1)");
  CHECK_FALSE(has(judge(p), "UCX_TLS"));
}

TEST_CASE("transports: RC listed on a device with max_srq 0 does not count") {
  auto p = healthy_h100();
  p.set("ibv_caps", ibv_caps({"mlx5_0", "mlx5_1"}));
  auto f = find(judge(p), "transports");
  CHECK(f.status == Status::fail);
  CHECK(contains(
      f.detail,
      "mlx5_0, mlx5_1 report max_srq 0 (ibv_devinfo -v): UCX's RC and DC transports need a "
      "shared receive queue (sgl-project/sglang #30099)"));
  // One device without an SRQ, RC on the other: KV still has RC, the gap is said.
  p.set("ibv_caps", ibv_caps({"mlx5_0"}));
  f = find(judge(p), "transports");
  CHECK(f.status == Status::warn);
  CHECK(f.detail.starts_with(
      "rc_mlx5, dc_mlx5 on 1 device (mlx5_1:1); not on mlx5_0 reports max_srq 0"));
}

TEST_CASE("transports: without ucx_info, max_srq 0 on every KV device still fails, some warn, none "
          "stays skipped") {
  auto p = healthy_h100();
  p.absent("ucx_info_d").absent("ucx_info_v").set("ibv_caps", ibv_caps(all_nics()));
  auto f = find(judge(p), "transports");
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with("no RC or DC for KV: "));
  CHECK(f.detail.ends_with("NIXL's UCX backend cannot move KV over RDMA"));

  p.set("ibv_caps", ibv_caps({"mlx5_4"}));
  CHECK(find(judge(p), "transports").status == Status::warn);

  p.set("ibv_caps", ibv_caps({}));
  CHECK(find(judge(p), "transports").status == Status::skipped);
  // ibv_devinfo -v that failed vouches for nothing: skipped as without it.
  p.set("ibv_caps", "hca_id:\tmlx5_0\n\tmax_srq:\t\t\t0\nrc=1\n");
  CHECK(find(judge(p), "transports").status == Status::skipped);
}

TEST_CASE("UCX_TLS without cuda_copy fails at ucx on one node too, keeping it (or cuda, all, ^) "
          "gives nothing") {
  auto p = healthy_h100();
  for (const char* tls : {"tcp", "rc_x,tcp", "^cuda_copy", "^cuda", "rc,cuda_ipc"}) {
    CAPTURE(tls);
    p.set("transport_env", std::string("UCX_TLS=") + tls + "\n");
    auto f = find(judge(p), "UCX_TLS");
    CHECK(f.status == Status::fail);
    CHECK(f.layer == Layer::ucx);
    CHECK(contains(
        f.detail,
        "leaves out cuda_copy: UCX then takes the KV cache's GPU memory for host memory and "
        "NIXL cannot register it (NVIDIA/TensorRT-LLM #18373)"));
    CHECK(f.next == "set UCX_TLS=rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc (or unset it)");
  }
  for (const char* tls : {"rc_x,rc,cuda_copy,cuda_ipc", "rc,cuda", "all", "^cuda_ipc", "^ud",
                          "cuda_copy,cuda_ipc,tcp"}) {
    CAPTURE(tls);
    p.set("transport_env", std::string("UCX_TLS=") + tls + "\n");
    CHECK_FALSE(has(judge(p), "UCX_TLS"));
  }
}

TEST_CASE("UCX_TLS leaving out cuda_ipc where multi-node NVLink is meant warns") {
  auto p = healthy_h100();
  p.set("transport_env", "UCX_TLS=rc,cuda_copy,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  auto f = find(judge(p), "UCX_TLS");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "leaves out cuda_ipc while multi-node NVLink is meant to carry KV"));
  // Neither RDMA nor cuda_ipc: only TCP is left for KV.
  p.set("transport_env", "UCX_TLS=cuda_copy,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  f = find(judge(p), "UCX_TLS");
  CHECK(f.status == Status::fail);
  CHECK(contains(f.detail, "and it has no RDMA transport either"));
  p.set("transport_env", "UCX_TLS=rc,cuda_copy,cuda_ipc,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  CHECK_FALSE(has(judge(p), "UCX_TLS"));
  p.set("transport_env", "UCX_TLS=cuda_copy,cuda_ipc,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  CHECK_FALSE(has(judge(p), "UCX_TLS"));
}
