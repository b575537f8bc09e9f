#include <doctest/doctest.h>

#include "fixture.hpp"
#include "probe/parsers.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {
std::string cell(const Topology& t, const std::string& a, const std::string& b) {
  const TopoLink* l = t.link(a, b);
  return l == nullptr ? "?" : l->text;
}
}  // namespace

TEST_CASE("topo: old mlx5_N headers, no legend, empty NIC affinity") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/a100-pcie-2gpu-2nic-old-mlx5-headers-della.txt"));
  CHECK(t.error.empty());
  CHECK(t.columns == std::vector<std::string>{"GPU0", "GPU1", "mlx5_0", "mlx5_1"});
  REQUIRE(t.rows.size() == 4);
  CHECK(t.nic_legend.empty());
  CHECK(t.has_numa_affinity);
  CHECK_FALSE(t.has_gpu_numa_id);
  CHECK(cell(t, "GPU0", "GPU1") == "SYS");
  CHECK(cell(t, "GPU0", "mlx5_0") == "NODE");
  CHECK(t.link("GPU1", "mlx5_1")->kind == TopoLinkKind::node);
  CHECK(t.link("GPU0", "GPU0")->kind == TopoLinkKind::self);
  CHECK(t.row("GPU1")->cpu_affinity == "64-127");
  CHECK(t.row("GPU1")->numa_affinity == "1");
  CHECK(t.gpu_rows().size() == 2);
  CHECK(t.nic_rows().size() == 2);
  CHECK(t.row("mlx5_0")->name == "mlx5_0");
}

TEST_CASE("topo: DGX A100 NV12 with 10 NICs and NIC legend") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/dgx-a100-8gpu-nv12-10nic-numa8.txt"));
  REQUIRE(t.rows.size() == 18);
  CHECK(t.nic_legend.size() == 10);
  CHECK(t.nic_legend.at("NIC9") == "mlx5_9");
  CHECK(t.link("GPU0", "GPU7")->kind == TopoLinkKind::nvlink);
  CHECK(t.link("GPU0", "GPU7")->nvlinks == 12);
  CHECK(cell(t, "GPU0", "NIC0") == "PXB");
  CHECK(cell(t, "GPU0", "mlx5_1") == "PXB");  // by resolved name
  CHECK(cell(t, "GPU2", "NIC0") == "SYS");
  CHECK(cell(t, "NIC8", "NIC9") == "PIX");
  CHECK(t.row("GPU0")->cpu_affinity == "48-63,176-191");
  CHECK(t.row("GPU0")->numa_affinity == "3");
  CHECK(t.row("GPU7")->numa_affinity == "5");
  CHECK(t.row("NIC3")->name == "mlx5_3");
  CHECK(t.row("NIC3")->cpu_affinity.empty());
}

TEST_CASE("topo: GB200 partial, all SYS to NICs, Grace NUMA lists and GPU NUMA ID") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/gb200-4gpu-6nic-sglang11208-partial.txt"));
  CHECK(t.columns.size() == 10);
  REQUIRE(t.rows.size() == 3);
  CHECK(t.has_gpu_numa_id);
  CHECK(t.link("GPU0", "GPU3")->nvlinks == 18);
  for (const auto* g : t.gpu_rows())
    for (int n = 0; n < 6; ++n) CHECK(cell(t, g->label, "NIC" + std::to_string(n)) == "SYS");
  CHECK(t.row("GPU0")->cpu_affinity == "0-71");
  CHECK(t.row("GPU0")->numa_affinity == "0,3-9,11-17");
  CHECK(t.row("GPU0")->gpu_numa_id == "2");
  CHECK(t.row("GPU2")->gpu_numa_id == "18");
  CHECK(t.nic_legend.empty());  // cut before the legend
}

TEST_CASE("topo: H100 NV6 comma CPU lists, NIC3 row ends 'X '") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/h100-4gpu-nv6-4nic-cpu-list-affinity.txt"));
  REQUIRE(t.rows.size() == 8);
  CHECK(t.row("GPU0")->cpu_affinity == "6,14,22,30");
  CHECK(t.row("GPU0")->numa_affinity == "3");
  CHECK(t.row("GPU0")->gpu_numa_id == "N/A");
  CHECK(t.link("GPU1", "GPU2")->nvlinks == 6);
  CHECK(cell(t, "GPU3", "NIC3") == "PIX");
  CHECK(t.link("NIC3", "NIC3")->kind == TopoLinkKind::self);
}

TEST_CASE("topo: della H100 NV18, empty CPU affinity cells, legend") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/h100-8gpu-nv18-6nic-empty-cpu-affinity-della.txt"));
  REQUIRE(t.rows.size() == 14);
  CHECK(t.row("GPU0")->cpu_affinity.empty());
  CHECK(t.row("GPU0")->numa_affinity == "0");
  CHECK(t.row("GPU0")->gpu_numa_id == "N/A");
  CHECK(t.row("GPU4")->cpu_affinity == "1");
  CHECK(t.row("GPU4")->numa_affinity == "1");
  CHECK(cell(t, "GPU0", "NIC0") == "PIX");
  CHECK(cell(t, "GPU1", "NIC0") == "NODE");
  CHECK(t.nic_legend.size() == 6);
}

TEST_CASE("topo: 8 GPUs, no NICs") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/h100-8gpu-nv18-no-nics.txt"));
  CHECK(t.columns.size() == 8);
  CHECK(t.nic_rows().empty());
  CHECK(t.gpu_rows().size() == 8);
  CHECK(t.row("GPU5")->cpu_affinity == "48-95,144-191");
  CHECK(t.row("GPU5")->numa_affinity == "1");
  CHECK(t.row("GPU5")->gpu_numa_id == "N/A");
}

TEST_CASE("topo: POWER8 legacy SOC, mlx5 headers, no NUMA column") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/power8-minsky-p100-4gpu-soc-legacy-legend.txt"));
  REQUIRE(t.rows.size() == 6);
  CHECK(t.legacy_soc);
  CHECK_FALSE(t.has_numa_affinity);
  CHECK(t.link("GPU0", "GPU2")->kind == TopoLinkKind::soc);
  CHECK(t.link("GPU0", "GPU1")->nvlinks == 2);
  CHECK(cell(t, "mlx5_0", "mlx5_1") == "PIX");
  CHECK(t.row("GPU0")->cpu_affinity == "0-0,8-8,16-16,24-24,32-32,40-40,48-48,56-56,64-64,72-72");
}

TEST_CASE("topo: RTX 6000 Ada PCIe, NODE/SYS, legend") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/rtx6000ada-4gpu-pcie-4nic-numa2-stelline.txt"));
  REQUIRE(t.rows.size() == 8);
  CHECK(cell(t, "GPU0", "GPU1") == "NODE");
  CHECK(cell(t, "GPU2", "mlx5_2") == "NODE");
  CHECK(t.row("GPU2")->numa_affinity == "1");
  CHECK(t.row("NIC2")->name == "mlx5_2");
  CHECK_FALSE(t.legacy_soc);
}

TEST_CASE("topo: single GPU, all affinity empty") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/single-gpu-all-affinity-empty-sglang-env.txt"));
  REQUIRE(t.rows.size() == 1);
  CHECK(t.row("GPU0")->cpu_affinity.empty());
  CHECK(t.row("GPU0")->numa_affinity.empty());
  CHECK(t.row("GPU0")->gpu_numa_id == "N/A");
}

TEST_CASE("topo: single GPU, no NIC, tabs") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/single-gpu-no-nic-tabs.txt"));
  REQUIRE(t.rows.size() == 1);
  CHECK(t.row("GPU0")->cpu_affinity == "0-31");
  CHECK(t.row("GPU0")->numa_affinity == "0");
  CHECK(t.row("GPU0")->gpu_numa_id == "N/A");
}

TEST_CASE("topo: V100 hybrid cube, NV1/NV2 and NODE") {
  auto t = parse_nvidia_smi_topo(fixture("nvidia-smi-topo/v100-4gpu-hybrid-cube-4nic-switch-legend.txt"));
  REQUIRE(t.rows.size() == 8);
  CHECK(t.link("GPU0", "GPU1")->nvlinks == 2);
  CHECK(t.link("GPU0", "GPU2")->nvlinks == 1);
  CHECK(t.link("GPU0", "GPU3")->kind == TopoLinkKind::node);
  CHECK(cell(t, "GPU3", "mlx5_3") == "PIX");
  CHECK(t.row("GPU3")->cpu_affinity == "14-27");
}

TEST_CASE("topo: nothing parsable") {
  auto t = parse_nvidia_smi_topo("Failed to initialize NVML: Unknown Error\n");
  CHECK_FALSE(t.error.empty());
  CHECK(t.rows.empty());
}

TEST_CASE("nvlink: empty on a PCIe A10") {
  auto s = parse_nvidia_smi_nvlink(fixture("nvidia-smi-nvlink/a10-status-empty-gpud.txt"));
  CHECK(s.empty);
  CHECK(s.gpus.empty());
}

TEST_CASE("nvlink: 8x A100, 12 links at 25 GB/s") {
  auto s = parse_nvidia_smi_nvlink(fixture("nvidia-smi-nvlink/a100-8gpu-status-gpud.txt"));
  REQUIRE(s.gpus.size() == 8);
  for (const auto& g : s.gpus) {
    CHECK(g.links.size() == 12);
    for (const auto& l : g.links) CHECK(l.rate_gbs == doctest::Approx(25));
  }
  CHECK(s.gpus[0].name == "NVIDIA A100-SXM4-80GB");
  CHECK(s.gpus[0].uuid == "GPU-5269b708-678a-b1a8-60f0-c90406537486");
}

TEST_CASE("nvlink: all links inactive message") {
  auto s = parse_nvidia_smi_nvlink(fixture("nvidia-smi-nvlink/a100-gpu6-all-inactive-azure.txt"));
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.gpus[0].index == 6);
  CHECK(s.gpus[0].all_inactive_message);
  CHECK(s.gpus[0].links.empty());
}

TEST_CASE("nvlink: TAB+space indent, GPU 7") {
  auto s = parse_nvidia_smi_nvlink(fixture("nvidia-smi-nvlink/a100-gpu7-status-good-azure.txt"));
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.gpus[0].index == 7);
  CHECK(s.gpus[0].links.size() == 12);
  CHECK(s.gpus[0].links[11].index == 11);
  CHECK(s.gpus[0].links[11].active);
}

TEST_CASE("nvlink: H100 18 links then --capabilities (not counted twice)") {
  auto s = parse_nvidia_smi_nvlink(fixture("nvidia-smi-nvlink/h100-gpu0-status-18links-and-capabilities.txt"));
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.gpus[0].links.size() == 18);
  CHECK(s.gpus[0].links[17].rate_gbs == doctest::Approx(26.562));
}

TEST_CASE("nvlink: <inactive> links") {
  auto s = parse_nvidia_smi_nvlink("GPU 0: NVIDIA GB200 (UUID: GPU-1)\n\t Link 0: 53.125 GB/s\n\t Link 1: <inactive>\n");
  REQUIRE(s.gpus.at(0).links.size() == 2);
  CHECK(s.gpus[0].links[0].rate_gbs == doctest::Approx(53.125));
  CHECK_FALSE(s.gpus[0].links[1].active);
  CHECK_FALSE(s.gpus[0].links[1].rate_gbs.has_value());
}

TEST_CASE("nvidia-smi -L: MIG children") {
  auto g = parse_nvidia_smi_list(fixture("nvidia-smi/L-a100-4gpu-one-mig-split.txt"));
  REQUIRE(g.size() == 4);
  CHECK(g[0].name == "NVIDIA A100-SXM4-80GB");
  CHECK(g[0].uuid == "GPU-513536b6-7d19-9063-b049-1e69664bb298");
  REQUIRE(g[0].migs.size() == 4);
  CHECK(g[0].migs[3].profile == "1g.20gb");
  CHECK(g[0].migs[3].device == 3);
  CHECK(g[0].migs[3].uuid == "MIG-930574a9-d43a-5d2b-95da-3e68384c8d6b");
  CHECK(g[3].index == 3);
  CHECK(g[3].migs.empty());
}

TEST_CASE("nvidia-smi --list-gpus plus topo --matrix in one capture") {
  auto text = fixture("nvidia-smi/L-h100-8gpu-rhel-ai-vm-plus-topo-matrix.txt");
  auto g = parse_nvidia_smi_list(text.substr(0, text.find("topo --matrix")));
  REQUIRE(g.size() == 8);
  CHECK(g[7].name == "NVIDIA H100 80GB HBM3");
  auto t = parse_nvidia_smi_topo(text);
  CHECK(t.gpu_rows().size() == 8);
  CHECK(t.link("GPU0", "GPU7")->nvlinks == 18);
  CHECK(t.row("GPU3")->cpu_affinity == "0-63");
  CHECK(t.row("GPU3")->gpu_numa_id == "N/A");
}

TEST_CASE("nvidia-smi failures are classified") {
  auto e = classify_nvidia_smi_error(fixture("nvidia-smi/command-not-found-exit127-and-gpustat.txt"), 127);
  CHECK(e.kind == NvidiaSmiErrorKind::not_found);
  CHECK(e.text == "bash: nvidia-smi: command not found");
  CHECK(classify_nvidia_smi_error("", 127).kind == NvidiaSmiErrorKind::not_found);
  CHECK(classify_nvidia_smi_error("sh: nvidia-smi: not found\n", 127).kind == NvidiaSmiErrorKind::not_found);
  e = classify_nvidia_smi_error(fixture("nvidia-smi/failed-couldnt-communicate-with-driver.txt"), 9);
  CHECK(e.kind == NvidiaSmiErrorKind::no_driver_comm);
  e = classify_nvidia_smi_error(fixture("nvidia-smi/nvml-driver-library-version-mismatch-old.txt"), 18);
  CHECK(e.kind == NvidiaSmiErrorKind::version_mismatch);
  CHECK(e.text == "Failed to initialize NVML: Driver/library version mismatch");
  e = classify_nvidia_smi_error(fixture("nvidia-smi/nvml-unknown-error-in-container-eperm.txt"), 255);
  CHECK(e.kind == NvidiaSmiErrorKind::nvml_unknown);
  CHECK(classify_nvidia_smi_error("No devices were found\n", 6).kind == NvidiaSmiErrorKind::no_devices);
  CHECK(classify_nvidia_smi_error("weird\n", 3).kind == NvidiaSmiErrorKind::other);
  CHECK(classify_nvidia_smi_error("GPU 0: x\n", 0).kind == NvidiaSmiErrorKind::none);
}
