#include <doctest/doctest.h>

#include <algorithm>

#include "fixture.hpp"
#include "probe/parsers.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {
const KernelModule* mod(const std::vector<KernelModule>& ms, const std::string& name) {
  for (const auto& m : ms)
    if (m.name == name) return &m;
  return nullptr;
}
}  // namespace

TEST_CASE("lsmod: gdrdrv loaded, no peermem") {
  auto ms = parse_lsmod(fixture("lsmod/gdrdrv-loaded-no-peermem-ucx9908.txt"));
  REQUIRE(ms.size() == 2);
  CHECK(ms[0].name == "gdrdrv");
  CHECK(ms[0].size == 24576);
  CHECK(ms[0].refcount == 0);
  CHECK(mod(ms, "nvidia")->used_by == std::vector<std::string>{"nvidia_uvm", "gdrdrv", "nvidia_modeset"});
  CHECK(mod(ms, "nvidia_peermem") == nullptr);
}

TEST_CASE("lsmod: gpud YAML embedding lsmod lines") {
  auto ms = parse_lsmod(fixture("lsmod/gpud39-peermem-lsmod-yaml.txt"));
  REQUIRE(mod(ms, "nvidia_peermem") != nullptr);
  CHECK(mod(ms, "nvidia_peermem")->size == 16384);
  auto users = mod(ms, "ib_core")->used_by;
  CHECK(std::find(users.begin(), users.end(), "nvidia_peermem") != users.end());
  CHECK(mod(ms, "nvidia")->refcount == 550);
}

TEST_CASE("lsmod: empty greps, prompt lines only") {
  CHECK(parse_lsmod(fixture("lsmod/grep-peermem-empty-no-module-nccl988.txt")).empty());
  CHECK(parse_lsmod(fixture("lsmod/nv-peer-mem-missing-after-reboot-modinfo.txt")).empty());
}

TEST_CASE("lsmod: EL7 peermem + gdrdrv, odd sizes, trailing space") {
  auto ms = parse_lsmod(fixture("lsmod/rhel7-peermem-gdrdrv-ucx7863.txt"));
  CHECK(mod(ms, "nvidia_peermem")->size == 13163);
  CHECK(mod(ms, "gdrdrv")->size == 18183);
  CHECK(mod(ms, "ib_core")->used_by.size() == 9);
  CHECK(mod(ms, "nvidia")->used_by.back() == "nvidia_uvm");
}

TEST_CASE("/proc/modules vs lsmod of the same module") {
  auto text = fixture("proc-modules/hello-module-proc-modules-vs-lsmod.txt");
  auto pm = parse_proc_modules(text);
  REQUIRE(pm.size() == 1);
  CHECK(pm[0].name == "hello");
  CHECK(pm[0].size == 16384);
  CHECK(pm[0].refcount == 0);
  CHECK(pm[0].used_by.empty());
  CHECK(pm[0].state == "Live");
  auto ls = parse_lsmod(text);
  REQUIRE(ls.size() == 1);
  CHECK(ls[0].name == "hello");
}

TEST_CASE("/proc/modules: '-' and trailing-comma user lists") {
  auto pm = parse_proc_modules(fixture("proc-modules/ubuntu-apport-proc-modules-excerpt.txt"));
  CHECK(pm.front().name == "ipheth");
  CHECK(mod(pm, "usb_storage")->used_by == std::vector<std::string>{"uas"});
  CHECK(mod(pm, "vboxdrv")->used_by == std::vector<std::string>{"vboxpci", "vboxnetadp", "vboxnetflt"});
  CHECK(mod(pm, "vboxdrv")->refcount == 5);
}

TEST_CASE("/proc/self/limits: 8 MiB memlock") {
  auto m = parse_proc_limits(fixture("ulimit/proc-pid-limits-memlock-8mib.txt"));
  REQUIRE(m.soft.has_value());
  CHECK_FALSE(m.soft->unlimited);
  CHECK(m.soft->bytes == 8388608);
  CHECK(m.hard->bytes == 8388608);
  auto u = parse_proc_limits("Max locked memory         unlimited            unlimited            bytes     \n");
  CHECK(u.soft->unlimited);
  CHECK(u.hard->unlimited);
  CHECK_FALSE(parse_proc_limits("").soft.has_value());
}

TEST_CASE("ulimit -l and ulimit -a") {
  auto a = parse_ulimit_l(fixture("ulimit/ulimit-a-bash-8192-sysreport.txt"));
  REQUIRE(a.has_value());
  CHECK(a->bytes == 8192ULL * 1024);
  CHECK(parse_ulimit_l("unlimited\n")->unlimited);
  CHECK(parse_ulimit_l("64\n")->bytes == 65536);
  CHECK_FALSE(parse_ulimit_l("sh: ulimit: bad\n").has_value());
}

TEST_CASE("CapEff bit 14, and the nvidia-ctk #2037 measurement table") {
  CHECK(parse_cap_eff("Name:\tsh\nCapEff:\t000001fffeffffff\n") == 0x000001fffeffffffULL);
  CHECK(has_cap_ipc_lock(0x000001fffeffffffULL));
  CHECK_FALSE(has_cap_ipc_lock(0));
  CHECK_FALSE(has_cap_ipc_lock(0x00000000a80425fbULL));  // docker default set: no IPC_LOCK
  auto table = fixture("misc/memlock-nonroot-ipc-lock-table-nvidia-ctk2037.txt");
  CHECK(table.find("`0000000000000000` (cap lost)") != std::string::npos);
  CHECK(table.find("`a80465fb` (cap effective)") != std::string::npos);
  CHECK(has_cap_ipc_lock(0xa80465fbULL));      // the uid 0 row
  CHECK_FALSE(has_cap_ipc_lock(0x0ULL));        // the uid 1000 row
  CHECK_FALSE(parse_cap_eff("Name: x\n").has_value());
}

TEST_CASE("/proc/driver/nvidia/version: open vs proprietary kernel module") {
  auto open = parse_nvidia_driver_version(
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  (dvs-builder@U16-I3-B03-4-3)\n"
      "GCC version:  gcc version 12.3.0\n");
  CHECK(open.present);
  CHECK(open.open_kernel_module);
  CHECK(open.version == "550.54.14");
  auto prop = parse_nvidia_driver_version(
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n");
  CHECK(prop.present);
  CHECK_FALSE(prop.open_kernel_module);
  CHECK(prop.version == "535.104.05");
  CHECK_FALSE(parse_nvidia_driver_version("").present);
}

TEST_CASE("gdrdrv: /proc/devices major and /dev/gdrdrv listings") {
  auto text = fixture("misc/proc-devices-gdrdrv-major.txt");
  CHECK(parse_proc_devices_major(text, "gdrdrv") == 509);
  CHECK_FALSE(parse_proc_devices_major(text, "nvidia").has_value());
  CHECK(parse_dev_listing("crw-rw-rw-. 1 root root 509, 0 Feb 1 10:00 /dev/gdrdrv\n") ==
        std::vector<std::string>{"gdrdrv"});
  auto sanity = fixture("misc/dev-gdrdrv-and-gdrcopy-sanity.txt");
  CHECK(parse_dev_listing(sanity.substr(sanity.find("# ls -ls"))) == std::vector<std::string>{"gdrdrv"});
  CHECK(sanity.find("Total: 28, Passed: 28, Failed: 0") != std::string::npos);
}
