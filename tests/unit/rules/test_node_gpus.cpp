#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

// A tool-less image: only files (sysfs, /dev, /proc) were readable; every tool is absent.
Probe toolless() {
  auto p = healthy_h100();
  for (const char* t : {"ibstat", "ibv_devinfo", "ibv_devices", "ibdev2netdev", "lsmod", "nvidia_smi_list",
                        "nvidia_smi_topo", "nvidia_smi_nvlink", "ucx_info_v", "ucx_info_d"})
    p.absent(t);
  p.set("proc_modules", "nvidia_peermem 16384 0 - Live 0x0000000000000000 (OE)\n");
  return p;
}
}  // namespace

TEST_CASE("node: tool-less image (sysfs only): tools skipped, never ok, sysfs still judged") {
  auto fs = judge(toolless());
  CHECK(find(fs, "ports").status == Status::ok);
  CHECK(find(fs, "devices").status == Status::ok);
  CHECK(find(fs, "peer-memory").status == Status::ok);
  CHECK(find(fs, "verbs").status == Status::skipped);
  CHECK(find(fs, "nvidia-smi").status == Status::skipped);
  CHECK(find(fs, "nvidia-smi").detail == "nvidia-smi not in the image: GPU topology, NVLink and GPU-NIC affinity unknown");
  CHECK(find(fs, "transports").status == Status::skipped);
  CHECK_FALSE(has(fs, "topology"));
  CHECK_FALSE(has(fs, "nic affinity"));
  for (const auto& f : fs)
    if (f.name == "verbs" || f.name == "nvidia-smi" || f.name == "transports") CHECK_FALSE(f.next.empty());
  CHECK(find(fs, "UCX_NET_DEVICES").status == Status::ok);  // the named ports are Active in sysfs
}

TEST_CASE("node: no GPU driver: nvidia-smi's own failure fails at nvlink") {
  auto p = healthy_h100();
  p.set("nvidia_smi_list", fixture_from("nvidia-smi/failed-couldnt-communicate-with-driver.txt", "NVIDIA-SMI"), 9)
      .set("nvidia_smi_topo", fixture_from("nvidia-smi/failed-couldnt-communicate-with-driver.txt", "NVIDIA-SMI"), 9)
      .absent("nvidia_driver");
  auto fs = judge(p);
  auto f = find(fs, "nvidia-smi");
  CHECK(f.layer == Layer::nvlink);
  CHECK(f.status == Status::fail);
  CHECK(f.detail == "nvidia-smi: couldn't communicate with the NVIDIA driver (driver not loaded on the node?)");
  CHECK_FALSE(has(fs, "topology"));
  p.set("nvidia_smi_list", fixture_from("nvidia-smi/nvml-driver-library-version-mismatch-old.txt", "Failed"), 18);
  f = find(judge(p), "nvidia-smi");
  CHECK(f.status == Status::fail);
  CHECK(f.detail == "nvidia-smi: Driver/library version mismatch");
}

TEST_CASE("node: PCIe-only GPUs: 'no NVLink on this part', never NVLink down") {
  auto p = healthy_h100();
  p.set("nvidia_smi_topo", fixture("nvidia-smi-topo/rtx6000ada-4gpu-pcie-4nic-numa2-stelline.txt"))
      .set("nvidia_smi_nvlink", fixture("nvidia-smi-nvlink/a10-status-empty-gpud.txt"));
  auto fs = judge(p);
  auto f = find(fs, "topology");
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "no NVLink on this part: 4 GPUs talk over PCIe");
  CHECK_FALSE(has(fs, "links"));
  auto a = find(fs, "nic affinity");
  CHECK(a.status == Status::warn);
  CHECK_FALSE(a.required);
  CHECK(a.detail == "0/4 GPUs have a PIX/PXB NIC; nearest NIC crosses the CPU for GPU0→mlx5_0 NODE, GPU1→mlx5_0 "
                    "NODE, GPU2→mlx5_2 NODE, GPU3→mlx5_2 NODE");
}

TEST_CASE("node: NVLink expected from topo, inactive links then warn, all-inactive fails") {
  auto p = healthy_h100();
  auto nv = fixture("nvidia-smi-nvlink/h100-gpu0-status-18links-and-capabilities.txt");
  nv.replace(nv.find("Link 3: 26.562 GB/s"), 19, "Link 3: <inactive>");
  p.set("nvidia_smi_nvlink", nv);
  auto f = find(judge(p), "links");
  CHECK(f.status == Status::warn);
  // NVLink inside one pod is not the KV path between pods: shown, not judged.
  CHECK(f.detail ==
        "<inactive> NVLinks: GPU0 17/18 active (inside this pod: not the KV path between pods)");
  CHECK_FALSE(f.required);
  p.set("nvidia_smi_nvlink", fixture("nvidia-smi-nvlink/a100-gpu6-all-inactive-azure.txt"));
  f = find(judge(p), "links");
  CHECK(f.status == Status::fail);
  CHECK(f.detail == "all NVLinks inactive on GPU6");
  // DGX A100 (NV12 everywhere, NICs PXB in pairs): every GPU has a PXB NIC.
  p.set("nvidia_smi_topo", fixture("nvidia-smi-topo/dgx-a100-8gpu-nv12-10nic-numa8.txt"))
      .set("nvidia_smi_nvlink", fixture("nvidia-smi-nvlink/a100-8gpu-status-gpud.txt"));
  auto fs = judge(p);
  CHECK(find(fs, "topology").detail == "NV12 between all 8 GPUs");
  CHECK(find(fs, "links").status == Status::ok);
  CHECK(find(fs, "nic affinity").detail == "8/8 GPUs have a PIX/PXB NIC");
  // The della H100 table: GPUs 1, 2, 5, 7 have only NODE NICs.
  p.set("nvidia_smi_topo", fixture_from("nvidia-smi-topo/h100-8gpu-nv18-6nic-empty-cpu-affinity-della.txt", "\tGPU0"));
  CHECK(find(judge(p), "nic affinity").detail.starts_with("4/8 GPUs have a PIX/PXB NIC; nearest NIC crosses the CPU "
                                                          "for GPU1→mlx5_0 NODE"));
}

TEST_CASE("node: Grace (GB200) all-SYS table is normal, and affinity is not claimed") {
  auto p = healthy_h100();
  p.set("nvidia_smi_topo", fixture("nvidia-smi-topo/gb200-4gpu-6nic-sglang11208-partial.txt")).erase("nvidia_smi_list");
  p.set("transport_env", "NIXL_LOG_LEVEL=INFO\n");
  auto fs = judge(p);
  auto f = find(fs, "nic affinity");
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "every GPU-NIC path is SYS: normal on Grace (NICs attach to the CPU)");
  CHECK(find(fs, "UCX_NET_DEVICES").status == Status::skipped);
  // The same all-SYS shape on x86 (GPU NUMA ID N/A, non-Grace GPU names) is not excused.
  auto x86 = healthy_h100();
  x86.set("nvidia_smi_topo", topo_table(4, {"mlx5_0", "mlx5_1"}, 0, "SYS"));
  CHECK(find(judge(x86), "nic affinity").status == Status::warn);
}

TEST_CASE("node: multi-node NVLink (MNNVL, no RDMA in UCX_TLS): RDMA findings are informational") {
  Probe p;  // a GB200 pod with no RDMA device at all
  p.set("kernel", "6.8.0-1017-nvidia")
      .set("nvidia_driver", "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.172.08  Release Build")
      .set("nvidia_smi_list", "GPU 0: NVIDIA GB200 (UUID: GPU-1)\nGPU 1: NVIDIA GB200 (UUID: GPU-2)\n")
      .set("nvidia_smi_topo", fixture("nvidia-smi-topo/gb200-4gpu-6nic-sglang11208-partial.txt"))
      .absent("sysfs_ib")
      .absent("dev_infiniband")
      .set("proc_limits", "Max locked memory         8388608              8388608              bytes\n")
      .set("transport_env", "UCX_TLS=cuda_copy,cuda_ipc,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  auto fs = judge(p);
  auto hca = find(fs, "hca");
  CHECK(hca.status == Status::warn);
  CHECK_FALSE(hca.required);
  CHECK(contains(hca.detail, "(informational: KV moves over multi-node NVLink)"));
  for (const auto& f : fs)
    if (f.layer == Layer::fabric || f.layer == Layer::rdma_access) CHECK(f.status != Status::fail);
  auto m = find(fs, "multi-node nvlink");
  CHECK(m.status == Status::ok);
  CHECK(m.required);
  // With rc in UCX_TLS the exception does not apply: no HCA fails again.
  p.set("transport_env", "UCX_TLS=rc,cuda_copy,cuda_ipc\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  CHECK(find(judge(p), "hca").status == Status::fail);
  // A negated list keeps RDMA (`^cuda_ipc`): no exception either.
  p.set("transport_env", "UCX_TLS=^cuda_ipc\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  CHECK(find(judge(p), "hca").status == Status::fail);
}

TEST_CASE("node: --local on a machine with no GPU and no RDMA: every layer skipped with the reason") {
  Probe p;  // what this build machine looks like: nothing
  p.set("kernel", "6.1.0").absent("sysfs_ib").absent("dev_infiniband").absent("nvidia_driver").absent("nvidia_smi_list")
      .absent("nvidia_smi_topo").absent("ucx_info_d");
  auto fs = judge(p, {.disagg = true, .local = true});
  REQUIRE(fs.size() == 5);
  for (const auto& f : fs) {
    CHECK(f.status == Status::skipped);
    CHECK(f.detail == "no GPU (no NVIDIA driver, nvidia-smi lists none) and no RDMA device: not a GPU node");
  }
  CHECK(fs.front().layer == Layer::fabric);
  CHECK(fs.back().layer == Layer::ucx);
  CHECK(rules::node_summary(p.facts()) == "no GPU visible · no RDMA device");
  // The same empty facts in a worker pod are a disagg worker without RDMA: fail.
  auto pod = judge(p);
  CHECK(find(pod, "hca").status == Status::fail);
  CHECK(find(pod, "hca").detail == "no RDMA device: /sys/class/infiniband is absent (no HCA, or its kernel driver is "
                                   "not loaded): KV transfers would fall back to TCP");
  CHECK(find(judge(p, {.disagg = false}), "hca").status == Status::warn);
}
