// VM markers (probe/gpudirect/vm_parsers.hpp): DMI names and the hypervisor CPU flag.
#include "probe/gpudirect/vm_parsers.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

// synthetic: the vm_markers section's lines; the DMI strings are those QEMU/KVM and Hyper-V
// write (sys_vendor "QEMU" / "Microsoft Corporation", product_name "Standard PC (Q35 + ICH9,
// 2009)" / "Virtual Machine"), the flag as the probe reports the first flags line of /proc/cpuinfo.
TEST_CASE("vm markers: QEMU and Hyper-V guests, the hypervisor flag alone, and bare metal") {
  auto qemu = parse_vm_markers(
      "sys_vendor QEMU\nproduct_name Standard PC (Q35 + ICH9, 2009)\ncpu_flag hypervisor\n");
  CHECK(qemu.sys_vendor == "QEMU");
  CHECK(qemu.hypervisor_flag == true);
  CHECK(qemu.markers() == std::vector<std::string>{"CPU flag hypervisor", "sys_vendor QEMU",
                                                   "product_name Standard PC (Q35 + ICH9, 2009)"});
  auto azure = parse_vm_markers("sys_vendor Microsoft Corporation\nproduct_name Virtual Machine\n");
  CHECK_FALSE(azure.hypervisor_flag.has_value());
  CHECK(azure.markers().size() == 2);
  CHECK(parse_vm_markers("cpu_flag hypervisor\n").markers() ==
        std::vector<std::string>{"CPU flag hypervisor"});
  auto metal =
      parse_vm_markers("sys_vendor Supermicro\nproduct_name SYS-821GE-TNHR\ncpu_flag none\n");
  CHECK(metal.hypervisor_flag == false);
  CHECK(metal.markers().empty());
  CHECK(parse_vm_markers("sys_vendor Amazon EC2\nproduct_name p5.metal\ncpu_flag none\n")
            .markers()
            .empty());
  CHECK(parse_vm_markers("sys_vendor Amazon EC2\nproduct_name p5.48xlarge\ncpu_flag hypervisor\n")
            .markers()
            .size() == 3);
}

TEST_CASE("the node probe reads the VM markers, and a flags line without hypervisor says none") {
  auto script = std::string(node_probe_script());
  CHECK(script.find("begin vm_markers") != std::string::npos);
  CHECK(script.find("/sys/class/dmi/id/$f") != std::string::npos);
  CHECK(script.find("begin vm_markers") < script.rfind("done@@"));
  auto f = parse_node_probe("@@icheck:begin vm_markers@@\nsys_vendor QEMU\ncpu_flag hypervisor\n"
                            "@@icheck:end vm_markers rc=0@@\n@@icheck:done@@\n");
  CHECK(f.vm.sys_vendor == "QEMU");
  CHECK(f.vm.hypervisor_flag == true);
  CHECK_FALSE(parse_node_probe("@@icheck:done@@\n").vm.hypervisor_flag.has_value());
}
