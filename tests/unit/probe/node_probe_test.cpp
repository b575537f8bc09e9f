#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>
#include <utility>

#include "fixture.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/sections.hpp"
#include "run_shell.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {

std::string section(const std::string& name, const std::string& body, const std::string& rc) {
  return "@@icheck:begin " + name + "@@\n" + body + "\n@@icheck:end " + name + " rc=" + rc + "@@\n";
}

}  // namespace

TEST_CASE("sections: rc, absent, truncated, noise outside sections") {
  auto out = split_sections("kubectl noise\n@@icheck:meta version=1 timeout=plain@@\n" +
                            section("a", "line1\nline2", "0") + section("b", "", "absent") +
                            "@@icheck:begin c@@\npartial\n");
  CHECK(out.meta == "version=1 timeout=plain");
  CHECK_FALSE(out.done);
  REQUIRE(out.sections.size() == 3);
  CHECK(out.sections[0].name == "a");
  CHECK(out.sections[0].body == "line1\nline2");
  CHECK(out.sections[0].rc == 0);
  CHECK(out.sections[0].complete);
  CHECK(out.sections[1].absent);
  CHECK_FALSE(out.sections[1].rc.has_value());
  CHECK(out.sections[2].body == "partial");
  CHECK_FALSE(out.sections[2].complete);
  CHECK(out.find("b") == &out.sections[1]);
}

TEST_CASE("parse_node_probe: assembles facts from fixture-filled sections") {
  std::string raw = "@@icheck:meta version=1 timeout=plain@@\n";
  raw += section("hostname", "gpu-a01", "0");
  raw += section("kernel", "6.8.0-45-generic", "0");
  raw += section("sysfs_ib", fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"), "0");
  raw += section("dev_infiniband", "rdma_cm\numad0\nuverbs0", "0");
  raw += section("proc_limits", fixture("ulimit/proc-pid-limits-memlock-8mib.txt"), "0");
  raw += section("proc_status", "CapEff:\t00000000a80425fb", "0");
  raw += section("ulimit_l", "8192", "0");
  raw += section("memory_peers", "1.1", "0");
  raw += section("sys_module", "nvidia_peermem \nnvidia 550.54.14", "0");
  raw += section("proc_modules", "gdrdrv 24576 0 - Live 0x0000000000000000 (OE)", "0");
  raw += section("nvidia_driver", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build", "0");
  raw += section("dev_gdrdrv", "", "absent");
  raw += section("proc_devices", "509 gdrdrv", "0");
  raw += section("transport_env", "12 UCX_TLS=rc,cuda_copy\n6 NIXL_API_TOKEN=s3cret\n4 PATH=/bin", "0");
  raw += section("ibstat", fixture("ibstat/a100-8x-cx6-ib-200g-ibpanic-exit255.txt"), "255");
  raw += section("ibv_devinfo", fixture("ibv_devinfo/no-userspace-provider-0-hcas.txt"), "0");
  raw += section("nvidia_smi_list", fixture("nvidia-smi/failed-couldnt-communicate-with-driver.txt"), "9");
  raw += section("nvidia_smi_topo", "", "absent");
  raw += section("ucx_info_v", fixture("ucx_info/ucx-1.16-version-source-build.txt"), "0");
  raw += section("ucx_info_d", "", "124");
  raw += "@@icheck:done@@\n";

  auto f = parse_node_probe(raw);
  CHECK(f.script_complete);
  CHECK(f.hostname == "gpu-a01");
  CHECK(f.kernel == "6.8.0-45-generic");
  CHECK(f.sysfs_infiniband);
  CHECK(f.sysfs_devices.size() == 9);
  CHECK(f.dev_infiniband_present);
  CHECK(f.dev_infiniband == std::vector<std::string>{"rdma_cm", "umad0", "uverbs0"});
  CHECK(f.memlock.soft->bytes == 8388608);
  CHECK(f.memlock.ulimit_l->bytes == 8388608);
  CHECK(f.cap_ipc_lock == false);
  CHECK(f.peer_memory.nv_mem_version == "1.1");
  CHECK(f.peer_memory.nvidia_peermem);
  CHECK_FALSE(f.peer_memory.nv_peer_mem);
  CHECK(f.gdrcopy.module);
  CHECK_FALSE(f.gdrcopy.dev_gdrdrv);
  CHECK(f.gdrcopy.proc_devices_major == 509);
  CHECK(f.nvidia_driver.open_kernel_module);
  CHECK(f.transport_env.at("UCX_TLS") == "rc,cuda_copy");
  CHECK(f.transport_env.at("NIXL_API_TOKEN") != "s3cret");  // masked
  CHECK(f.transport_env.count("PATH") == 0);
  CHECK(f.ibstat.devices.size() == 8);
  CHECK(f.ibstat.error.rfind("ibpanic:", 0) == 0);
  CHECK(f.tool("ibstat")->exit_code == 255);
  CHECK(f.verbs.device_count == 0);
  CHECK(f.verbs.error == VerbsError::no_provider);
  CHECK(f.nvidia_smi_error.kind == NvidiaSmiErrorKind::no_driver_comm);
  CHECK(f.gpus.empty());
  CHECK_FALSE(f.topo.has_value());
  CHECK_FALSE(f.tool("nvidia_smi_topo")->found);
  CHECK(f.ucx_version->version == "1.16.0");
  CHECK(f.tool("ucx_info_d")->timed_out);
  CHECK_FALSE(f.ucx_devices.has_value());
  CHECK(f.tool("lsmod") == nullptr);  // never attempted
}

TEST_CASE("parse_node_probe: output cut mid-way") {
  auto f = parse_node_probe("@@icheck:begin hostname@@\nnode-1\n@@icheck:end hostname rc=0@@\n@@icheck:begin sysfs_ib@@\n==> mlx5_0/ports/1/state <==\n4: ACT");
  CHECK_FALSE(f.script_complete);
  CHECK(f.hostname == "node-1");
  CHECK(f.tool("sysfs_ib")->truncated);
  REQUIRE(f.sysfs_devices.size() == 1);
  CHECK(f.sysfs_devices[0].ports.at(0).state == PortState::unknown);  // "4: ACT" is not a state
}

namespace {
bool on_path(const std::string& command) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    auto end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    auto dir = dirs.substr(start, end - start);
    if (!dir.empty() && ::access((dir + "/" + command).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}
}  // namespace

TEST_CASE("probe script on this machine (no RDMA, no GPU) under dash, busybox sh and /bin/sh") {
  for (std::string shell : {"/bin/sh", "dash", "busybox sh"}) {
    CAPTURE(shell);
    if (!icheck::test::shell_installed(shell)) continue;
    auto raw = icheck::test::run_shell(shell, node_probe_script());
    auto f = parse_node_probe(raw);
    CHECK(f.script_complete);
    CHECK_FALSE(f.hostname.empty());
    CHECK_FALSE(f.kernel.empty());
    for (auto name : {"hostname",        "kernel",
                      "sysfs_ib",        "dev_infiniband",
                      "proc_limits",     "proc_status",
                      "ulimit_l",        "memory_peers",
                      "sys_module",      "proc_modules",
                      "nvidia_driver",   "dev_gdrdrv",
                      "proc_devices",    "transport_env",
                      "ibstat",          "ibv_devinfo",
                      "ibv_devices",     "ibdev2netdev",
                      "lsmod",           "nvidia_smi_list",
                      "nvidia_smi_topo", "nvidia_smi_nvlink",
                      "ucx_info_v",      "ucx_info_d",
                      "ibv_caps"}) {
      CAPTURE(name);
      REQUIRE(f.tool(name) != nullptr);
      CHECK_FALSE(f.tool(name)->truncated);
    }
    // A tool is found exactly when it is on this machine's PATH (CI installs Debian's
    // ibverbs-utils and ucx-utils for the e2e bed; nothing here has an RDMA device or a GPU).
    const std::pair<const char*, const char*> tools[] = {{"ibstat", "ibstat"},
                                                         {"ibv_devinfo", "ibv_devinfo"},
                                                         {"ibv_caps", "ibv_devinfo"},
                                                         {"nvidia_smi_list", "nvidia-smi"},
                                                         {"ucx_info_d", "ucx_info"}};
    for (const auto& tool : tools) {  // no structured binding: clang 14 cannot capture one
      const char* section = tool.first;
      CAPTURE(section);
      CHECK(f.tool(section)->found == on_path(tool.second));
    }
    if (!on_path("nvidia-smi")) CHECK(f.nvidia_smi_error.kind == NvidiaSmiErrorKind::not_found);
    CHECK(f.memlock.soft.has_value());
    CHECK(f.cap_eff.has_value());
    CHECK(f.memlock.ulimit_l.has_value());
  }
}

TEST_CASE("parse_node_probe: a transport value holding a newline stays one variable") {
  std::string raw = "@@icheck:meta version=1 timeout=plain@@\n";
  // synthetic: the probe's transport_env records for UCX_TLS='rc\nNIXL_INJECTED=1' and a
  // NIXL_ETCD_ENDPOINTS with userinfo.
  raw += section("transport_env",
                 "18 UCX_TLS=rc\nNIXL_INJECTED=1\n21 NIXL_ETCD_ENDPOINTS=http://u:pw@etcd:2379", "0");
  raw += "@@icheck:done@@\n";
  const auto f = icheck::probe::parse_node_probe(raw);
  CHECK(f.transport_env.size() == 2);
  CHECK(f.transport_env.at("UCX_TLS") == "rc\nNIXL_INJECTED=1");
  CHECK(f.transport_env.count("NIXL_INJECTED") == 0);
  CHECK(f.transport_env.at("NIXL_ETCD_ENDPOINTS") == "http://***@etcd:2379");
}
