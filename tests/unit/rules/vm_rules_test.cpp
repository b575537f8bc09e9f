// gpudirect "virtual machine": GPUDirect RDMA in a VM rests on the hypervisor (dynamo #12463).
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

// synthetic: the vm_markers section's lines (see tests/unit/probe/vm_parse_test.cpp)
TEST_CASE("virtual machine: a QEMU guest with GPUs and RDMA ports warns with what to check") {
  auto fs = judge(healthy_h100().set(
      "vm_markers", "sys_vendor QEMU\nproduct_name Standard PC (Q35 + ICH9, 2009)\n"
                    "cpu_flag hypervisor\n"));
  const auto& f = find(fs, "virtual machine");
  CHECK(f.layer == Layer::gpudirect);
  CHECK(f.status == Status::warn);
  CHECK(f.required);
  CHECK(contains(f.detail, "CPU flag hypervisor, sys_vendor QEMU"));
  CHECK(contains(f.detail, "ATS on the NIC"));
  CHECK(contains(f.detail, "ACS"));
  CHECK(contains(f.next, "nixl --transfer"));
  auto j =
      rules::node_facts_json(healthy_h100().set("vm_markers", "cpu_flag hypervisor\n").facts());
  CHECK(j.at("vm").as_object().at("virtualMachine").as_bool());
}

TEST_CASE(
    "virtual machine: bare metal, unread markers, or a VM without RDMA ports get no finding") {
  CHECK_FALSE(has(judge(healthy_h100().set("vm_markers", "sys_vendor Supermicro\ncpu_flag none\n")),
                  "virtual machine"));
  CHECK_FALSE(has(judge(healthy_h100()), "virtual machine"));
  auto no_rdma = healthy_h100()
                     .set("vm_markers", "cpu_flag hypervisor\n")
                     .erase("sysfs_ib")
                     .erase("ibv_devinfo");
  CHECK_FALSE(has(judge(no_rdma), "virtual machine"));
}
