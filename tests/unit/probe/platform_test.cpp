#include "fixture.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/parsers.hpp"
#include "probe/platform/platform_parsers.hpp"
#include "probe/sections.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {

std::string section(const std::string& name, const std::string& body, const std::string& rc) {
  return "@@icheck:begin " + name + "@@\n" + body + "\n@@icheck:end " + name + " rc=" + rc + "@@\n";
}

// The lines of an excerpt between a "$ command" line and the next one.
std::string after_prompt(const std::string& text, const std::string& command) {
  auto at = text.find("$ " + command);
  if (at == std::string::npos)
    return {};
  auto start = text.find('\n', at) + 1;
  auto stop = text.find("\n$ ", start);
  return text.substr(start, stop == std::string::npos ? std::string::npos : stop - start);
}

} // namespace

TEST_CASE("nvidia-smi -q fabric: a grep excerpt without GPU headers (dra-driver #626)") {
  auto f = parse_nvidia_smi_fabric(
      fixture("nvidia-smi-q/gb200-fabric-completed-unhealthy-grep-dra626.txt"));
  REQUIRE(f.gpus.size() == 1);
  CHECK(f.error.empty());
  CHECK(f.gpus[0].state == "Completed");
  CHECK(f.gpus[0].status == "Success");
  CHECK(f.gpus[0].clique_id == "2");
  CHECK(f.gpus[0].cluster_uuid == "dc6e40c4-d722-4357-9ba6-5291dd461278");
  CHECK(f.gpus[0].health_summary == "Unhealthy");
  CHECK(f.gpus[0].registered());
}

TEST_CASE(
    "nvidia-smi -q fabric: Insufficient Resources with a zero ClusterUUID is not registered") {
  auto f = parse_nvidia_smi_fabric(
      fixture("nvidia-smi-q/fabric-insufficient-resources-zero-uuid-azhpc506.txt"));
  REQUIRE(f.gpus.size() == 1);
  CHECK(f.gpus[0].status == "Insufficient Resources");
  CHECK(f.gpus[0].clique_id == "0");
  CHECK_FALSE(f.gpus[0].registered());
}

TEST_CASE("nvidia-smi -q fabric: GPU headers, top-level keys, an error line") {
  auto f =
      parse_nvidia_smi_fabric(fixture("nvidia-smi-q/gb200-2gpu-fabric-filtered-synthetic.txt"));
  REQUIRE(f.gpus.size() == 2);
  CHECK(f.error.empty());
  CHECK(f.gpus[1].gpu == "00000009:01:00.0");
  CHECK(f.gpus[1].clique_id == "32766");
  CHECK(f.gpus[1].registered());
  auto bad = parse_nvidia_smi_fabric(
      after_prompt(fixture("nvidia-smi/failed-couldnt-communicate-with-driver.txt"), "nvidia-smi"));
  CHECK(bad.gpus.empty());
  CHECK(bad.error.find("NVIDIA-SMI has failed") != std::string::npos);
}

TEST_CASE("pcie: sysfs link speed and width as the kernel prints them (resources #512)") {
  CHECK(parse_pcie_speed("16.0 GT/s PCIe") == 16.0);
  CHECK(parse_pcie_speed("2.5 GT/s") == 2.5);
  CHECK_FALSE(parse_pcie_speed("Unknown").has_value());
  // The fixture's files as the probe prints them: `pci KIND NAME ADDR` then `file value`.
  auto raw = fixture("pcie/sysfs-link-x8-of-x16-gen4-of-gen5-resources512.txt");
  std::string probe_out;
  std::string file;
  std::size_t pos = 0;
  while (pos < raw.size()) {
    auto nl = raw.find('\n', pos);
    auto line = raw.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? raw.size() : nl + 1;
    if (line.starts_with("==> ")) {
      auto path = line.substr(4, line.size() - 8);
      auto slash = path.rfind('/');
      auto addr = path.substr(std::string("/sys/bus/pci/devices/").size(), slash - 21);
      if (file != addr)
        probe_out += "pci gpu " + addr + " " + addr + "\n";
      file = addr;
      probe_out += path.substr(slash + 1) + " ";
    } else if (!line.empty()) {
      probe_out += line + "\n";
    }
  }
  auto links = parse_pci_links(probe_out);
  REQUIRE(links.size() == 2);
  CHECK(links[0].address == "0000:01:00.0");
  CHECK(links[0].width == 8);
  CHECK(links[0].max_width == 16);
  CHECK(links[0].speed_gts == 16.0);
  CHECK(links[0].max_speed_gts == 32.0);
  CHECK(links[0].speed_text == "16.0 GT/s PCIe");
  CHECK(links[1].width == links[1].max_width);
}

TEST_CASE("iommu: kernel command line settings, units, ACS from lspci (nccl #523, #1405)") {
  auto m = parse_iommu(
      "cmdline BOOT_IMAGE=/vmlinuz-6.8 root=UUID=x ro intel_iommu=on iommu=pt quiet\nunit dmar0\n"
      "unit dmar1\nclass present\n");
  CHECK(m.cmdline_read);
  CHECK(m.cmdline_setting == "intel_iommu=on iommu=pt");
  CHECK(m.units.size() == 2);
  CHECK(m.class_present);
  read_lspci_acs(fixture("pcie/lspci-acsctl-redirect-enabled-nccl523.txt"), m);
  CHECK(m.acs == AcsState::redirecting);
  // ReqRedir+/CmpltRedir+ on 2 of its lines; SrcValid+ alone (2 more) redirects nothing.
  CHECK(m.acs_redirecting.size() == 2);
  CHECK(m.acs_redirecting[0].address.empty());  // grep kept no header
  Iommu off;
  read_lspci_acs(fixture("pcie/lspci-acsctl-all-disabled-nccl1405.txt"), off);
  CHECK(off.acs == AcsState::disabled);
  Iommu denied;
  read_lspci_acs("00:01.0 PCI bridge: Intel Corporation Device\n\tCapabilities: <access denied>\n",
                 denied);
  CHECK(denied.acs == AcsState::unknown);
  CHECK(denied.acs_why_unknown.find("not root") != std::string::npos);
}

TEST_CASE("efa: sysfs says Unknown, ibv_devinfo says InfiniBand, the PCI vendor labels it EFA "
          "(rdma-core #884)") {
  auto raw = fixture("efa/efa0-sysfs-link-layer-unknown-and-ibv-devinfo-rdma-core884.txt");
  auto sysfs_ll = after_prompt(raw, "cat /sys/class/infiniband/efa_0/ports/1/link_layer");
  CHECK(parse_link_layer(sysfs_ll) == LinkLayer::unknown);
  auto verbs = parse_ibv_devinfo(after_prompt(raw, "ibv_devinfo"));
  REQUIRE(verbs.devices.size() == 1);
  CHECK(verbs.devices[0].name == "efa_0");

  std::string probe = section(
      "sysfs_ib",
      "==> efa_0/ports/1/state <==\n4: ACTIVE\n==> efa_0/ports/1/phys_state <==\n5: LinkUp\n"
      "==> efa_0/ports/1/link_layer <==\n" +
          sysfs_ll,
      "0");
  probe += section("pci_links", "pci nic efa_0 0000:10:1b.0\nvendor 0x1d0f\n", "0");
  probe += section("fi_info", fixture("efa/fi-info-p-efa-synthetic.txt"), "0");
  probe += section("proc_modules", "efa_nv_peermem 16384 0 - Live 0xffffffffc0a4c000", "0");
  auto f = parse_node_probe(probe);
  CHECK(f.platform.efa_devices == std::vector<std::string>{"efa_0"});
  REQUIRE(f.sysfs_devices.size() == 1);
  CHECK(f.sysfs_devices[0].ports[0].link_layer == LinkLayer::efa);
  CHECK(f.platform.fi_info_efa == true);
  CHECK(f.platform.efa_nv_peermem);

  auto none =
      parse_node_probe(section("fi_info", fixture("efa/fi-info-no-data-synthetic.txt"), "1"));
  CHECK(none.platform.fi_info_efa == false);
  CHECK(none.platform.fi_info_error == "fi_getinfo: -61 (No data available)");
}

TEST_CASE("imex channels and the KV worker's limits from the probe sections") {
  std::string worker_limits = fixture("ulimit/proc-pid-limits-memlock-8mib.txt");
  std::string probe = section("imex_channels", "channel0", "0");
  probe += section("kv_worker",
                   "==> 41 <==\nmodule dynamo.vllm\ncomm sh\nMax locked memory         unlimited   "
                   "         unlimited"
                   "            bytes\nCapEff:\t00000000a80425fb\nUid:\t1000\t1000\t1000\t1000\n"
                   "==> 57 <==\nmodule dynamo.vllm\ncomm python3\n" +
                       worker_limits + "CapEff:\t00000000a80465fb\n",
                   "0");
  auto f = parse_node_probe(probe);
  CHECK(f.platform.imex_dir);
  CHECK(f.platform.imex_channels == std::vector<std::string>{"channel0"});
  CHECK(f.platform.workers_read);
  REQUIRE(f.platform.workers.size() == 2);
  CHECK(f.platform.workers[0].pid == 41);
  CHECK(f.platform.workers[0].comm == "sh");
  CHECK(f.platform.workers[0].memlock.soft->unlimited);
  CHECK(f.platform.workers[0].uid == 1000);
  CHECK(f.platform.workers[1].module == "dynamo.vllm");
  CHECK(f.platform.workers[1].memlock.soft->bytes == 8388608);
  CHECK(f.platform.workers[1].cap_eff == 0xa80465fbULL);
  auto listing =
      parse_dev_listing(fixture("imex/dev-nvidia-imex-channel0-k8s-device-plugin985.txt"));
  CHECK(listing == std::vector<std::string>{"channel0"});
}

TEST_CASE("the platform sections run in every shell and the worker pattern cannot match the script "
          "itself") {
  const std::string script(node_probe_script());
  CHECK(script.find("grep -a -o -E 'dynamo[.][a-z_]+'") != std::string::npos);
  CHECK(script.find("dynamo.") == std::string::npos); // the probe's own cmdline is grepped too
  for (std::string shell : {"dash", "busybox sh", "bash"}) {
    CAPTURE(shell);
    if (!icheck::test::shell_installed(shell))
      continue;
    auto out = split_sections(icheck::test::run_shell(shell, script));
    CHECK(out.done);
    for (const char* name :
         {"imex_channels", "nvidia_gpus", "pci_links", "iommu", "lspci_acs", "kv_worker"}) {
      CAPTURE(name);
      const auto* s = out.find(name);
      REQUIRE(s != nullptr);
      CHECK(s->complete);
    }
  }
}

TEST_CASE("acs: SrcValid+ alone is no redirection (nccl #606), a redirecting bridge is named by "
          "its lspci header (rccl #547)") {
  Iommu srcvalid;
  read_lspci_acs(fixture("pcie/lspci-acsctl-srcvalid-only-nccl606.txt"), srcvalid);
  CHECK(srcvalid.acs == AcsState::disabled);
  CHECK(srcvalid.acs_redirecting.empty());
  Iommu root;
  read_lspci_acs(fixture("pcie/lspci-acs-root-port-redirect-rccl547.txt"), root);
  CHECK(root.acs == AcsState::redirecting);
  REQUIRE(root.acs_redirecting.size() == 1);
  CHECK(root.acs_redirecting[0].address == "0000:40:01.1");
}

TEST_CASE("pci links: the bridges above a device from its resolved sysfs path") {
  auto links = parse_pci_links(fixture("pcie/pci-paths-nic-gpu-one-switch-rccl547-synthetic.txt"));
  REQUIRE(links.size() == 2);
  CHECK(links[0].path_read);
  CHECK(links[0].upstream ==
        std::vector<std::string>{"0000:40:01.1", "0000:43:00.0", "0000:44:00.0"});
  CHECK(links[1].upstream.size() == 7);
  CHECK(links[1].upstream.back() == "0000:49:00.0");
  // A path that is not under /sys/devices/pci (a copied tree) tells nothing about bridges.
  auto copied =
      parse_pci_links("pci nic mlx5_0 0000:1a:00.0\npath /sys/bus/pci/devices/0000:1a:00.0\n");
  REQUIRE(copied.size() == 1);
  CHECK_FALSE(copied[0].path_read);
  CHECK(copied[0].upstream.empty());
}
