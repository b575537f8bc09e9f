#include "report/verdict.hpp"
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

std::string with_state(std::string sysfs, const std::string& dev, const std::string& state) {
  auto at = sysfs.find("==> " + dev + "/ports/1/state <==\n");
  REQUIRE(at != std::string::npos);
  auto v = sysfs.find('\n', at) + 1;
  sysfs.replace(v, sysfs.find('\n', v) - v, state);
  return sysfs;
}
}  // namespace

TEST_CASE("node: RoCE host (ibstat's view standing in for sysfs) is told apart from InfiniBand") {
  auto p = healthy_h100();
  p.set("sysfs_ib", "").erase("dev_infiniband").set("dev_infiniband", uverbs(12));
  p.set("ibstat", fixture("ibstat/h100-roce-cx7-400g-all-active.txt")).erase("nvidia_smi_topo").erase("ucx_info_d");
  p.set("transport_env", "NIXL_LOG_LEVEL=INFO\n").erase("ibv_devinfo");
  auto fs = judge(p);
  auto ports = find(fs, "ports");
  CHECK(ports.status == Status::ok);
  CHECK(ports.detail == "12/12 ports Active, 400/100 Gb/s RoCE (link layer Ethernet) (from ibstat; sysfs unreadable)");
  // The summary counts the ibstat ports too (sysfs unreadable).
  CHECK(rules::node_summary(p.facts()) == "8× NVIDIA H100 80GB HBM3 · 8× mlx5 400 Gb/s RoCE + 4× mlx5 100 Gb/s RoCE");
  // Without a topology the role of an Ethernet NIC is unknown: no "roce addressing" claim.
  CHECK_FALSE(has(fs, "roce addressing"));
  p.set("nvidia_smi_topo", topo_table(8, {"mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10",
                                          "mlx5_11"}, 8));
  auto addr = find(judge(p), "roce addressing");
  CHECK(addr.layer == Layer::ucx);
  CHECK(addr.status == Status::warn);
  CHECK_FALSE(addr.required);
  CHECK(addr.next == "env: UCX_IB_ADDR_TYPE=eth");
  p.set("transport_env", "UCX_IB_ADDR_TYPE=eth\n");
  CHECK(find(judge(p), "roce addressing").status == Status::ok);
}

TEST_CASE("node: RoCE Polling and Disabled ports: fail where traffic goes, warn elsewhere") {
  auto p = healthy_h100();
  p.set("sysfs_ib", "").set("ibstat", fixture("ibstat/h100-roce-one-polling-one-disabled.txt"));
  p.set("transport_env", "NCCL_IB_HCA=mlx5_11\n").erase("nvidia_smi_topo");
  auto fs = judge(p);
  auto polling = find(fs, "port mlx5_11:1");
  CHECK(polling.status == Status::fail);
  CHECK(contains(polling.detail, "Polling: no link partner"));
  CHECK(contains(polling.detail, "(named in NCCL_IB_HCA)"));
  auto disabled = find(fs, "port mlx5_5:1");
  CHECK(disabled.status == Status::warn);
  CHECK(contains(disabled.detail, "Disabled: the port is administratively down (role unknown without nvidia-smi topo -m)"));
}

TEST_CASE(
    "node: INIT port UCX_NET_DEVICES lists blocks at fabric, where the port state is judged") {
  // The real shape (IB ports waiting for the subnet manager) read "blocked at nvlink": the
  // UCX_NET_DEVICES finding was filed under nvlink and the port itself only warned.
  auto p = healthy_h100();
  p.set("sysfs_ib", with_state(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"), "mlx5_5", "2: INIT"));
  auto fs = judge(p);
  auto f = find(fs, "port mlx5_5:1");
  CHECK(f.layer == Layer::fabric);
  CHECK(f.status == Status::fail);  // UCX is pinned to it: KV cannot move until the SM is done
  CHECK(f.detail == "mlx5_5:1 2: INIT/5: LinkUp: waiting for the subnet manager (is opensm / UFM running on this "
                    "fabric?) (named in UCX_NET_DEVICES)");
  CHECK(find(fs, "ports").detail.starts_with("8/9 ports Active"));
  auto listed = find(fs, "UCX_NET_DEVICES");
  CHECK(listed.status == Status::fail);  // a listed port that is not Active
  CHECK(listed.layer == Layer::ucx);
  report::Report r;
  r.mode = "node";
  r.targets.push_back(
      {"decode-0", report::TargetKind::pod, "decode", "", "node-a", "dynamo", "", fs, {}});
  const auto v = report::decide(r);
  CHECK(v.status == report::VerdictStatus::blocked);
  REQUIRE(v.layer.has_value());
  CHECK(*v.layer == Layer::fabric);
  CHECK(v.check == "port mlx5_5:1");
}

TEST_CASE("node: INIT port warns 'waiting for the subnet manager' when UCX is not pinned to it") {
  auto p = healthy_h100();
  p.set("sysfs_ib", with_state(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"),
                               "mlx5_5", "2: INIT"));
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\n");
  auto fs = judge(p);
  auto f = find(fs, "port mlx5_5:1");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "waiting for the subnet manager"));
  CHECK(find(fs, "UCX_NET_DEVICES").status == Status::ok);
}

TEST_CASE("node: a Down port on a NIC that is not GPU-affine only warns") {
  auto p = healthy_h100();
  p.set("sysfs_ib", with_state(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"), "mlx5_bond_0", "1: DOWN"));
  auto f = find(judge(p), "port mlx5_bond_0:1");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "(not GPU-affine)"));
}

TEST_CASE("node: mixed rates across GPU-affine NICs warn") {
  auto p = healthy_h100();
  auto sysfs = fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
  auto at = sysfs.find("==> mlx5_6/ports/1/rate <==\n");
  REQUIRE(at != std::string::npos);
  sysfs.replace(sysfs.find("400 Gb/sec (4X NDR)", at), 19, "200 Gb/sec (4X HDR)");
  p.set("sysfs_ib", sysfs);
  auto f = find(judge(p), "rate");
  CHECK(f.status == Status::warn);
  CHECK(f.detail == "mixed rates across the GPU-facing NICs: 400 Gb/s on mlx5_0:1, mlx5_1:1, mlx5_4:1, mlx5_5:1, "
                    "mlx5_7:1, mlx5_8:1, mlx5_9:1; 200 Gb/s on mlx5_6:1 (degraded link?)");
}

TEST_CASE("node: HCAs in sysfs but no uverbs in the pod fails at rdma-access") {
  auto p = healthy_h100();
  p.set("dev_infiniband", "rdma_cm\numad0\numad1\n");
  auto f = find(judge(p), "devices");
  CHECK(f.layer == Layer::rdma_access);
  CHECK(f.status == Status::fail);
  CHECK(f.detail == "9 HCAs in sysfs (mlx5_0, mlx5_1, mlx5_4, mlx5_5, mlx5_6, mlx5_7, mlx5_8, mlx5_9, mlx5_bond_0) "
                    "but /dev/infiniband has no uverbs*: RDMA device not mounted into the pod: request an rdma/* "
                    "resource or the device plugin");
  CHECK(f.next.starts_with("resources.limits[\"rdma/ib\"]: 1"));
  p.absent("dev_infiniband");
  CHECK(contains(find(judge(p), "devices").detail, "but no /dev/infiniband:"));
}

TEST_CASE("node: an aggregated deployment's RDMA findings are shown, never judged") {
  // Every RDMA-layer fail becomes a warn that does not count, and says why; others are untouched.
  auto p = healthy_h100();
  p.set("dev_infiniband", "rdma_cm\numad0\numad1\n");
  const auto disagg = judge(p);
  const auto agg = judge(p, {.disagg = false});
  REQUIRE(agg.size() == disagg.size());
  CHECK(find(disagg, "devices").status == Status::fail);
  auto f = find(agg, "devices");
  CHECK(f.status == Status::warn);
  CHECK_FALSE(f.required);
  CHECK(f.detail.ends_with("(not needed: an aggregated deployment keeps KV on its node)"));
  for (std::size_t i = 0; i < agg.size(); ++i) {
    CAPTURE(agg[i].name);
    CHECK(agg[i].status != Status::fail);
    if (agg[i].layer == Layer::nvlink) CHECK(agg[i].detail == disagg[i].detail);
  }
}

TEST_CASE("node: a partial mount (Mooncake erdma: 2 HCAs, 1 uverbs, ibv_devices lists 1) warns") {
  auto raw = fixture("misc/dev-infiniband-and-ibv_devices-erdma-container.txt");
  Probe p;
  p.set("sysfs_ib", "==> erdma_0/ports/1/state <==\n4: ACTIVE\n==> erdma_1/ports/1/state <==\n4: ACTIVE\n")
      .set("dev_infiniband", "rdma_cm  uverbs0\n")
      .set("ibv_devices", raw.substr(raw.find("    device")));
  auto fs = judge(p);
  CHECK(find(fs, "devices").status == Status::warn);
  CHECK(find(fs, "devices").detail.starts_with("uverbs0 visible in the pod for 2 HCAs in sysfs (erdma_0, erdma_1)"));
  CHECK(find(fs, "verbs").status == Status::warn);
  CHECK(find(fs, "verbs").detail.starts_with("verbs opens 1/2 devices"));
}

TEST_CASE("node: verbs sees 0 devices while sysfs has some: provider missing") {
  auto p = healthy_h100();
  p.set("ibv_devinfo", fixture_from("ibv_devinfo/no-userspace-provider-0-hcas.txt", "libibverbs"), 0);
  auto f = find(judge(p), "verbs");
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with("verbs sees 0 devices while sysfs has 9: no userspace verbs provider (libmlx5 etc.) in "
                             "the image"));
  CHECK(contains(f.next, "ibverbs-providers"));
}

TEST_CASE("node: memlock 64 KiB without IPC_LOCK fails, 8 MiB (ulimit -a fixture) fails, 1 GiB warns") {
  auto p = healthy_h100();
  p.set("proc_status", "CapEff:\t0000000000000000\n")
      .set("proc_limits", "Max locked memory         65536                65536                bytes\n");
  auto f = find(judge(p), "memlock");
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with(
      "exec shell: memlock 64 KiB and no effective CAP_IPC_LOCK: RDMA memory registration fails"));
  CHECK(f.next.starts_with("securityContext.capabilities.add: [IPC_LOCK]"));

  p.set("proc_limits", fixture_from("ulimit/proc-pid-limits-memlock-8mib.txt", "Limit"));
  CHECK(find(judge(p), "memlock")
            .detail.starts_with("exec shell: memlock 8 MiB and no effective CAP_IPC_LOCK"));
  p.erase("proc_limits").set("ulimit_l", "8192\n");
  CHECK(find(judge(p), "memlock").status == Status::fail);

  p.set("ulimit_l", "1048576\n");
  f = find(judge(p), "memlock");
  CHECK(f.status == Status::warn);
  CHECK(f.detail.starts_with("exec shell: memlock 1024 MiB and no effective CAP_IPC_LOCK: finite"));

  p.erase("ulimit_l").erase("proc_status");
  CHECK(find(judge(p), "memlock").status == Status::skipped);
}

TEST_CASE("node: peermem missing, with and without a DMA-BUF path") {
  auto p = healthy_h100();
  p.set("lsmod", fixture("lsmod/grep-peermem-empty-no-module-nccl988.txt"), 1).erase("ucx_info_d");
  p.set("kernel", "6.8.0-1015-aws")
      .set("nvidia_driver", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build");
  auto f = find(judge(p), "peer-memory");
  CHECK(f.status == Status::warn);
  CHECK(f.detail.starts_with("no nvidia_peermem: relies on DMA-BUF (open kernel module 570.86.15, kernel 6.8.0-1015-aws)"));

  p.set("kernel", "5.4.0-150-generic");
  f = find(judge(p), "peer-memory");
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with("no nvidia_peermem / nv_peer_mem and no DMA-BUF path (open kernel module 570.86.15, "
                             "kernel 5.4.0-150-generic)"));
  p.set("kernel", "6.8.0").set("nvidia_driver", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat");
  CHECK(find(judge(p), "peer-memory").status == Status::fail);
  // Aggregated deployments do not ship KV across nodes.
  CHECK(find(judge(p, {.disagg = false}), "peer-memory").status == Status::warn);
  // UCX registering cuda memory on the IB domain settles it.
  p.set("ucx_info_d", ucx_ib({"mlx5_0"}, "host (access,reg,cache), cuda (reg)", "unlimited, dmabuf, cost: 180 nsec"));
  auto fs = judge(p);
  CHECK(find(fs, "peer-memory").status == Status::ok);
  CHECK(find(fs, "ucx gpudirect").detail == "UCX registers cuda memory on mlx5_0 (dmabuf): GPUDirect RDMA confirmed");
}

TEST_CASE("node: GDRCopy absent is an optional warn, never a fail") {
  auto p = healthy_h100();
  p.absent("dev_gdrdrv");
  auto f = find(judge(p), "gdrcopy");
  CHECK(f.status == Status::warn);
  CHECK_FALSE(f.required);
  CHECK(f.detail == "/dev/gdrdrv absent: GDRCopy not used (optional)");
  p.set("proc_devices", fixture("misc/proc-devices-gdrdrv-major.txt"));
  CHECK(contains(find(judge(p), "gdrcopy").detail, "gdrdrv loaded on the node but /dev/gdrdrv is not in the pod"));
}

TEST_CASE("node: UCX tcp-only falls back to TCP, old UCX warns, ucx_info absent is skipped with a next command") {
  auto p = healthy_h100();
  p.set("ucx_info_d", ucx_tcp_only());
  auto fs = judge(p);
  auto f = find(fs, "transports");
  CHECK(f.status == Status::fail);
  CHECK(f.detail ==
        "UCX would fall back to TCP: ucx_info -d lists posix, cuda_copy, tcp, no rc/dc");
  CHECK_FALSE(has(fs, "ucx gpudirect"));

  p.set("ucx_info_v", fixture_from("ucx_info/ucx-1.16-version-source-build.txt", "# Library"));
  f = find(judge(p), "version");
  CHECK(f.status == Status::warn);
  CHECK(f.detail.starts_with("UCX 1.16.0 < 1.19"));

  p.absent("ucx_info_d").absent("ucx_info_v");
  fs = judge(p);
  f = find(fs, "transports");
  CHECK(f.status == Status::skipped);
  CHECK(contains(f.detail, "UCX only inside the NIXL wheel"));
  CHECK(contains(f.next, "UCX_PROTO_INFO=y"));
  CHECK_FALSE(has(fs, "version"));

  // RDMA transports listed only on a port that is Down still mean TCP.
  p.set("sysfs_ib", with_state(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"), "mlx5_0", "1: DOWN"));
  p.set("ucx_info_d", ucx_ib({"mlx5_0"}, "host (access,reg,cache)"));
  fs = judge(p);
  CHECK(find(fs, "transports").status == Status::fail);
  CHECK(contains(find(fs, "transports").detail, "RDMA transports only on ports that are not Active: mlx5_0:1"));
  CHECK(find(fs, "ucx gpudirect").status == Status::fail);
}

// ucx_info -d lists every transport the UCX build has, whatever UCX_TLS allows: an RDMA transport
// it lists is UCX's to use only when the pod's UCX_TLS keeps one. cuda_copy,cuda_ipc,tcp is the
// qwen3.8 GB200 recipes' value (tests/recipes/qwen3.8-2.4t-a95b-fp8/*/deploy.yaml), meant for
// multi-node NVLink; without UCX_CUDA_IPC_ENABLE_MNNVL it is nixl #1614's TCP-only setup.
TEST_CASE(
    "node: UCX_TLS without an RDMA transport fails transports although ucx_info -d lists rc") {
  auto p = healthy_h100();
  const std::string devices = "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\n";
  p.set("transport_env", "UCX_TLS=cuda_copy,cuda_ipc,tcp\n" + devices);
  auto fs = judge(p);
  auto f = find(fs, "transports");
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::ucx);
  CHECK(contains(
      f.detail, "UCX_TLS=cuda_copy,cuda_ipc,tcp has no RDMA transport (rc, dc, ib, srd; ud alone"));
  CHECK(contains(f.detail, "ucx_info -d lists rc_mlx5, dc_mlx5, which it does not allow"));
  CHECK(contains(f.next, "UCX_TLS=rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc"));

  // An exclusion list that drops every RDMA transport is the same.
  p.set("transport_env", "UCX_TLS=^rc,dc,ud\n" + devices);
  CHECK(find(judge(p), "transports").status == Status::fail);
  p.set("transport_env", "UCX_TLS=^ib\n" + devices);
  CHECK(find(judge(p), "transports").status == Status::fail);

  // Without ucx_info the variable alone says it: never skipped.
  p.set("transport_env", "UCX_TLS=cuda_copy,cuda_ipc,tcp\n" + devices).absent("ucx_info_d");
  f = find(judge(p), "transports");
  CHECK(f.status == Status::fail);
  CHECK(contains(f.detail, "UCX_TLS=cuda_copy,cuda_ipc,tcp has no RDMA transport"));

  // An aggregated deployment needs no RDMA: shown, not judged.
  f = find(judge(p, {.disagg = false}), "transports");
  CHECK(f.status == Status::warn);
  CHECK_FALSE(f.required);
}

TEST_CASE("node: UCX_TLS keeping an RDMA transport leaves transports to ucx_info -d") {
  auto p = healthy_h100();
  // The recipes' values (dynamo-nixl reference): rc listed, or only cuda_ipc / ud excluded.
  for (const char* tls :
       {"rc_x,rc,cuda_copy,cuda_ipc", "cuda_ipc,cuda_copy,rc", "^cuda_ipc", "^ud"}) {
    CAPTURE(tls);
    p.set("transport_env", std::string("UCX_TLS=") + tls + "\nUCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\n");
    auto f = find(judge(p), "transports");
    CHECK(f.status == Status::ok);
    CHECK(f.detail == "rc_mlx5, dc_mlx5 on 2 devices (mlx5_0:1, mlx5_1:1)");
  }
  // Multi-node NVLink carries KV: no RDMA in UCX_TLS is the intent (the nvlink layer judges it).
  p.set("transport_env", "UCX_TLS=cuda_copy,cuda_ipc,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  CHECK(find(judge(p), "transports").status != Status::fail);
}

// UCX matches each UCX_NET_DEVICES entry against its device names exactly (ucp_context.c,
// ucp_is_resource_in_device_list: resource->dev_name): an RDMA port is "mlx5_0:1", a netdev
// names UCX's tcp device ("network device 'fake_device' is not available, please use one or
// more of: 'bond0'(tcp), 'ibp161s0'(tcp), 'lo'(tcp), 'mlx5_0:1'(ib)").
TEST_CASE("node: UCX_NET_DEVICES naming no RDMA port (a netdev, a bare HCA name) fails") {
  auto p = healthy_h100();
  // Netdev names from imbue's ibdev2netdev capture: mlx5_0 port 1 is IPoIB ibp26s0.
  p.set("ibdev2netdev", fixture("ibdev2netdev/h100-8x-cx7-ib-plus-cx6-eth-imbue.txt"));
  for (const char* value : {"ibp26s0", "mlx5_0,mlx5_1", "eth0", "ibp26s0,lo"}) {
    CAPTURE(value);
    p.set("transport_env", std::string("UCX_NET_DEVICES=") + value + "\n");
    auto f = find(judge(p), "UCX_NET_DEVICES");
    CHECK(f.status == Status::fail);
    CHECK(
        contains(f.detail, "names no RDMA port (UCX names them like mlx5_0:1): UCX uses TCP only"));
    CHECK(
        f.next ==
        "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_8:1,mlx5_9:1");
  }
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0,mlx5_1\n");
  CHECK(contains(find(judge(p), "UCX_NET_DEVICES").detail,
                 "not UCX device names: mlx5_0 (mlx5_0:1), mlx5_1 (mlx5_1:1)"));
  p.set("transport_env", "UCX_NET_DEVICES=ibp26s0\n");
  CHECK(contains(find(judge(p), "UCX_NET_DEVICES").detail,
                 "ibp26s0 is the netdev of mlx5_0:1 (UCX's tcp device there)"));
}

TEST_CASE("node: UCX_NET_DEVICES with RDMA ports stays ok beside a tcp netdev, a bare HCA name "
          "beside them warns") {
  auto p = healthy_h100();
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,eth0\n");
  CHECK(find(judge(p), "UCX_NET_DEVICES").status == Status::ok);
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_1\n");
  auto f = find(judge(p), "UCX_NET_DEVICES");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "not UCX device names: mlx5_1 (mlx5_1:1); UCX skips them"));
}
