// Platform rules: multi-node NVLink (IMEX, GPU fabric), AWS EFA, PCIe/IOMMU/ACS, the KV worker's
// own memlock. Facts built through the probe's sections from real fixtures where one exists.
#include "rules/pair/cross_pod.hpp"
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

std::string fabric_ok() {
  return fixture("nvidia-smi-q/gb200-2gpu-fabric-filtered-synthetic.txt");
}

// An MNNVL worker as GB200 recipes set it up: KV over cuda_ipc with MNNVL, no RDMA transport.
Probe gb200(bool channel) {
  auto p = healthy_h100();
  p.set("transport_env", "UCX_TLS=cuda_copy,cuda_ipc,tcp\nUCX_CUDA_IPC_ENABLE_MNNVL=y\n");
  if (channel)
    p.set("imex_channels", fixture("imex/dev-nvidia-imex-channel0-k8s-device-plugin985.txt"));
  else
    p.absent("imex_channels");
  p.set("gpu_fabric", fabric_ok());
  return p;
}

std::string pci(const std::string& kind, const std::string& name, const std::string& addr,
                int width, int max_width, const std::string& speed, const std::string& max_speed,
                const std::string& iommu = "identity") {
  return "pci " + kind + " " + name + " " + addr + "\ncurrent_link_speed " + speed +
         "\ncurrent_link_width " + std::to_string(width) + "\nmax_link_speed " + max_speed +
         "\nmax_link_width " + std::to_string(max_width) + "\niommu_group/type " + iommu + "\n";
}

std::string h100_pci(const std::string& mlx5_0_iommu = "identity", int mlx5_0_width = 16) {
  std::string out;
  int i = 0;
  for (const auto& nic : h100_nics()) {
    bool first = i == 0;
    out += pci("nic", nic, "0000:1" + std::to_string(i++) + ":00.0", first ? mlx5_0_width : 16, 16,
               "32.0 GT/s PCIe", "32.0 GT/s PCIe", first ? mlx5_0_iommu : "identity");
  }
  out += pci("gpu", "0000:18:00.0", "0000:18:00.0", 16, 16, "32.0 GT/s PCIe", "32.0 GT/s PCIe");
  return out;
}

} // namespace

TEST_CASE("mnnvl: a GB200 worker with an IMEX channel and a registered fabric is ok") {
  auto fs = judge(gb200(true));
  auto imex = find(fs, "imex channel");
  CHECK(imex.layer == Layer::nvlink);
  CHECK(imex.status == Status::ok);
  CHECK(imex.detail == "channel0 in /dev/nvidia-caps-imex-channels (multi-node NVLink intended: "
                       "UCX_CUDA_IPC_ENABLE_MNNVL=y)");
  auto fabric = find(fs, "gpu fabric");
  CHECK(fabric.status == Status::ok);
  auto j = rules::node_facts_json(gb200(true).facts()).at("platform").as_object();
  CHECK(j.at("imexChannels").as_array().size() == 1);
  CHECK(j.at("gpuFabric").at("gpus").as_array()[0].at("cliqueId").as_string() == "32766");
  CHECK(j.at("gpuFabric").at("gpus").as_array()[0].at("registered").as_bool());
  CHECK(
      fabric.detail ==
      "2 GPUs joined the NVLink fabric: cluster 6a130f54-faaa-4b8f-847f-be44ab70f917 clique 32766");
}

TEST_CASE(
    "mnnvl: no IMEX channel fails at the nvlink layer with the ComputeDomain claim as next step") {
  auto imex = find(judge(gb200(false)), "imex channel");
  CHECK(imex.layer == Layer::nvlink);
  CHECK(imex.status == Status::fail);
  CHECK(contains(imex.detail, "no /dev/nvidia-caps-imex-channels"));
  CHECK(contains(imex.next, "resourceClaims"));
}

TEST_CASE("mnnvl: a fabric that did not register fails, unknown stays skipped, nothing intended, "
          "nothing judged") {
  auto p = gb200(true);
  p.set("gpu_fabric", fixture("nvidia-smi-q/fabric-insufficient-resources-zero-uuid-azhpc506.txt"));
  auto f = find(judge(p), "gpu fabric");
  CHECK(f.status == Status::fail);
  CHECK(contains(f.detail, "fabric registration failed: Status Insufficient Resources"));
  p.set("gpu_fabric", fixture("nvidia-smi-q/gb200-fabric-completed-unhealthy-grep-dra626.txt"));
  CHECK(find(judge(p), "gpu fabric").status == Status::warn); // registered, Health Unhealthy
  p.absent("gpu_fabric");
  auto unknown = find(judge(p), "gpu fabric");
  CHECK(unknown.status == Status::skipped);
  CHECK(contains(unknown.detail, "nvidia-smi not in the image"));
  auto h100 = judge(healthy_h100());
  CHECK_FALSE(has(h100, "imex channel"));
  CHECK_FALSE(has(h100, "gpu fabric"));
}

TEST_CASE(
    "mnnvl, cross-pod: prefill and decode in different NVLink domains fail, one domain passes") {
  auto pre = gb200(true).facts();
  auto dec = gb200(true).facts();
  probe::NixlFacts n;
  std::vector<rules::PodFacts> pods{{"p-0", dynamo::Role::prefill, &pre, &n, ""},
                                    {"d-0", dynamo::Role::decode, &dec, &n, ""}};
  auto same = rules::cross_pod_findings(pods);
  CHECK(same[1].empty());
  auto other = gb200(true);
  other.set("gpu_fabric", fixture("nvidia-smi-q/gb200-fabric-completed-unhealthy-grep-dra626.txt"));
  auto dec2 = other.facts();
  pods[1].node = &dec2;
  auto apart = rules::cross_pod_findings(pods);
  REQUIRE(apart[1].size() == 1);
  CHECK(apart[1][0].name == "nvlink domain");
  CHECK(apart[1][0].layer == Layer::nvlink);
  CHECK(apart[1][0].status == Status::fail);
  CHECK(contains(apart[1][0].detail, "cluster dc6e40c4-d722-4357-9ba6-5291dd461278 clique 2"));
}

TEST_CASE("efa: an EFA device is labelled EFA, efa_nv_peermem is GPUDirect, fi_info cross-checks "
          "libfabric") {
  Probe p = healthy_h100();
  p.set("sysfs_ib",
        "==> efa_0/ports/1/state <==\n4: ACTIVE\n==> efa_0/ports/1/phys_state <==\n5: LinkUp\n"
        "==> efa_0/ports/1/rate <==\n100 Gb/sec (4X EDR)\n==> efa_0/ports/1/link_layer "
        "<==\nUnknown\n");
  p.set("dev_infiniband", "uverbs0")
      .erase("ibv_devinfo")
      .erase("ibstat")
      .erase("nvidia_smi_topo")
      .erase("ucx_info_d");
  p.set("pci_links", "pci nic efa_0 0000:10:1b.0\nvendor 0x1d0f\n");
  p.set("sys_module", "nvidia 550.54.14")
      .set("proc_modules", "efa_nv_peermem 16384 0 - Live 0x0")
      .set("memory_peers", "", 1);
  p.absent("memory_peers");
  p.set("fi_info", fixture("efa/fi-info-p-efa-synthetic.txt"));
  p.set("transport_env", "NIXL_LOG_LEVEL=INFO\n");
  auto fs = judge(p);
  CHECK(find(fs, "ports").detail == "1/1 ports Active, 100 Gb/s AWS EFA");
  CHECK(find(fs, "peer-memory").status == Status::ok);
  CHECK(find(fs, "peer-memory").detail == "efa_nv_peermem loaded: GPUDirect RDMA over EFA");
  CHECK(find(fs, "libfabric efa").status == Status::ok);
  for (const auto& f : fs) {
    CAPTURE(f.detail);
    CHECK(f.status != Status::fail);
  }

  p.set("fi_info", fixture("efa/fi-info-no-data-synthetic.txt"), 1);
  auto bad = find(judge(p), "libfabric efa");
  CHECK(bad.status == Status::fail);
  CHECK(bad.layer == Layer::rdma_access);
  CHECK(contains(bad.detail, "fi_getinfo: -61 (No data available)"));
  p.absent("fi_info");
  auto none = find(judge(p), "libfabric efa");
  CHECK(none.status == Status::skipped);
  CHECK_FALSE(none.required);
}

TEST_CASE("pcie: a GPU-facing NIC trained x8 of x16 warns with the numbers, all at maximum is ok") {
  auto p = healthy_h100();
  p.set("pci_links", h100_pci());
  p.set("iommu", "cmdline BOOT_IMAGE=/boot/vmlinuz ro iommu=pt\nunit dmar0\nclass present\n");
  p.set("lspci_acs", fixture("pcie/lspci-acsctl-all-disabled-nccl1405.txt"));
  auto fs = judge(p);
  CHECK(find(fs, "nic pcie").status == Status::ok);
  CHECK(find(fs, "nic pcie").detail ==
        "8 GPU-facing NICs at their maximum PCIe link (x16 32 GT/s)");
  CHECK(find(fs, "gpu pcie").status == Status::ok);
  CHECK(find(fs, "iommu").status == Status::ok);
  CHECK(find(fs, "acs").status == Status::ok);
  p.set("pci_links", h100_pci("identity", 8));
  auto nic = find(judge(p), "nic pcie");
  CHECK(nic.layer == Layer::fabric);
  CHECK(nic.status == Status::warn);
  CHECK(contains(nic.detail, "mlx5_0 x8 32 GT/s of x16 32 GT/s"));
}

TEST_CASE("pcie: GPU links from the resources #512 capture: narrower warns, an idle speed drop is "
          "optional") {
  auto p = healthy_h100();
  p.set("pci_links",
        pci("gpu", "0000:01:00.0", "0000:01:00.0", 8, 16, "16.0 GT/s PCIe", "32.0 GT/s PCIe"));
  auto g = find(judge(p), "gpu pcie");
  CHECK(g.status == Status::warn);
  CHECK(g.required);
  CHECK(contains(g.detail, "x8 16 GT/s of x16 32 GT/s"));
  p.set("pci_links",
        pci("gpu", "0000:01:00.0", "0000:01:00.0", 16, 16, "2.5 GT/s PCIe", "32.0 GT/s PCIe"));
  auto idle = find(judge(p), "gpu pcie");
  CHECK(idle.status == Status::warn);
  CHECK_FALSE(idle.required);
}

TEST_CASE("iommu and acs: translation and ACS redirection warn, unreadable config space is "
          "skipped, optional") {
  auto p = healthy_h100();
  p.set("pci_links", h100_pci("DMA-FQ"));
  p.set("iommu", "cmdline BOOT_IMAGE=/boot/vmlinuz ro intel_iommu=on\nunit dmar0\nclass present\n");
  p.set("lspci_acs", fixture("pcie/lspci-acsctl-redirect-enabled-nccl523.txt"));
  auto fs = judge(p);
  auto iommu = find(fs, "iommu");
  CHECK(iommu.layer == Layer::gpudirect);
  CHECK(iommu.status == Status::warn);
  CHECK(contains(iommu.detail, "mlx5_0 (DMA-FQ); kernel command line: intel_iommu=on"));
  CHECK(contains(iommu.next, "iommu=pt"));
  auto acs = find(fs, "acs");
  CHECK(acs.status == Status::warn);
  CHECK(contains(acs.detail, "2 bridges"));  // SrcValid+ alone on 2 more: not redirection
  p.absent("lspci_acs");
  auto unknown = find(judge(p), "acs");
  CHECK(unknown.status == Status::skipped);
  CHECK_FALSE(unknown.required);
  CHECK(contains(unknown.detail, "lspci not in the image"));
}

TEST_CASE("memlock: the KV worker's own limits decide, not the exec shell's") {
  auto p = healthy_h100();
  p.set("proc_status", "CapEff:\t00000000a80425fb");
  p.set("proc_limits", fixture("ulimit/proc-pid-limits-memlock-8mib.txt"));
  // The worker raised its limit (`ulimit -l unlimited` in its command): fine.
  p.set("kv_worker", "==> 57 <==\nmodule dynamo.vllm\ncomm python3\nMax locked memory  unlimited  "
                     "unlimited  bytes\n"
                     "CapEff:\t00000000a80425fb\n");
  auto ok = find(judge(p), "memlock");
  CHECK(ok.status == Status::ok);
  CHECK(ok.detail == "worker pid 57 (dynamo.vllm): memlock unlimited (the exec shell has 8 MiB: "
                     "the worker raised its "
                     "own limit)");
  // A low worker limit fails even when the shell has IPC_LOCK; IPC_LOCK counts only where
  // effective.
  p.set("proc_status", "CapEff:\t00000000a80465fb");
  p.set(
      "kv_worker",
      "==> 41 <==\nmodule dynamo.sglang\ncomm sh\nMax locked memory  unlimited  unlimited  bytes\n"
      "==> 57 <==\nmodule dynamo.sglang\ncomm python3\n" +
          fixture("ulimit/proc-pid-limits-memlock-8mib.txt") +
          "CapEff:\t0000000000000000\nUid:\t1000\t1000\t1000\t1000\n");
  auto bad = find(judge(p), "memlock");
  CHECK(bad.status == Status::fail);
  CHECK(contains(bad.detail,
                 "worker pid 57 (dynamo.sglang): memlock 8 MiB and no effective CAP_IPC_LOCK"));
  // No worker running: the exec shell, said so.
  p.set("kv_worker", "");
  CHECK(find(judge(p), "memlock").detail ==
        "exec shell (no Dynamo worker process running): CAP_IPC_LOCK effective, the memlock limit "
        "does not apply");
}

TEST_CASE("memlock: every KV worker process is judged, the worst decides") {
  auto p = healthy_h100();
  // Two python workers (a forked child keeps its parent's command line): one unlimited, one at
  // the 8 MiB default without CAP_IPC_LOCK, which fails its registrations.
  const std::string unlimited = "==> 57 <==\nmodule dynamo.vllm\ncomm python3\nMax locked memory  "
                                "unlimited  unlimited  bytes\nCapEff:\t00000000a80425fb\n";
  p.set("kv_worker", unlimited + "==> 58 <==\nmodule dynamo.vllm\ncomm python3\n" +
                         fixture("ulimit/proc-pid-limits-memlock-8mib.txt") +
                         "CapEff:\t00000000a80425fb\n");
  auto f = find(judge(p), "memlock");
  CHECK(f.status == Status::fail);
  CHECK(contains(f.detail,
                 "worker pid 58 (dynamo.vllm): memlock 8 MiB and no effective CAP_IPC_LOCK"));
  CHECK(contains(f.detail, "(the worst of 2 worker processes)"));
  // Both unlimited: ok.
  std::string second = unlimited;
  second.replace(second.find("57"), 2, "58");
  p.set("kv_worker", unlimited + second);
  f = find(judge(p), "memlock");
  CHECK(f.status == Status::ok);
  CHECK(f.detail ==
        "worker pid 57 (dynamo.vllm): memlock unlimited (the worst of 2 worker processes)");
}

TEST_CASE(
    "memlock: a running worker whose limits were unreadable leaves the exec shell's ok a warning") {
  auto p = healthy_h100();  // the exec shell: unlimited, CAP_IPC_LOCK effective
  p.set("kv_worker", "==> 57 <==\nmodule dynamo.vllm\ncomm python3\n");
  auto f = find(judge(p), "memlock");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail,
                 "exec shell (the worker's limits were unreadable): CAP_IPC_LOCK effective"));
  CHECK(contains(f.detail, "the running worker's own limits are unknown"));
  CHECK(contains(f.next, "/proc/[0-9]*/limits"));
  // A failing shell limit stays a fail.
  p.set("proc_status", "CapEff:\t00000000a80425fb")
      .set("proc_limits", fixture("ulimit/proc-pid-limits-memlock-8mib.txt"));
  CHECK(find(judge(p), "memlock").status == Status::fail);
}

TEST_CASE("nvlink5: without multi-node NVLink, a fabric Fabric Manager has not set up fails, a "
          "set-up or unsupported one says nothing") {
  auto p = healthy_h100();
  p.set("gpu_fabric", fixture("nvidia-smi-q/b200-2gpu-fabric-in-progress-synthetic.txt"));
  auto fs = judge(p);
  CHECK_FALSE(has(fs, "imex channel"));
  auto f = find(fs, "gpu fabric");
  CHECK(f.layer == Layer::nvlink);
  CHECK(f.status == Status::fail);
  CHECK(contains(f.detail,
                 "GPU 00000000:1B:00.0: fabric State In Progress (registration not finished)"));
  CHECK(contains(f.detail, "(NVIDIA/gpu-driver-container #909)"));
  // Completed with a failed Status fails too (real capture: Azure/azhpc-images #506).
  p.set("gpu_fabric", fixture("nvidia-smi-q/fabric-insufficient-resources-zero-uuid-azhpc506.txt"));
  CHECK(contains(find(judge(p), "gpu fabric").detail,
                 "fabric registration failed: Status Insufficient Resources"));
  // Completed/Success (a single-node fabric needs no ClusterUUID): nothing.
  p.set("gpu_fabric", fabric_ok());
  CHECK_FALSE(has(judge(p), "gpu fabric"));
}
