#include "rules/gpudirect/vm_rules.hpp"

#include <boost/json.hpp>

namespace icheck::rules::node {

std::optional<report::Finding> judge_vm(const NodeView& v) {
  auto markers = v.facts.vm.markers();
  bool gpus = !v.facts.gpus.empty() || v.facts.nvidia_driver.present;
  if (markers.empty() || !gpus || all_ports(v).empty())
    return std::nullopt;
  return finding(
      report::Layer::gpudirect, "virtual machine", report::Status::warn,
      "a virtual machine (" + join(markers) +
          "): GPUDirect RDMA between its passed-through GPUs and NICs is sound only where the "
          "hypervisor supports GPU-NIC peer-to-peer, with ATS on the NIC and ACS set up on the "
          "virtual root ports; otherwise KV transfers can return wrong data without any error "
          "(ai-dynamo/dynamo #12463)",
      "run the transfer test, which checks the data (kubectl dynamo-icheck nixl --transfer); on "
      "the "
      "host: lspci -vvv shows 'ATSCtl: Enable+' on the NIC and the ACSCtl of the root ports above "
      "the GPU and the NIC; ask the cloud or hypervisor whether it supports GPUDirect RDMA");
}

boost::json::object vm_facts_json(const probe::VmMarkers& vm) {
  boost::json::array markers;
  for (const auto& m : vm.markers())
    markers.push_back(boost::json::string(m));
  return {{"sysVendor", vm.sys_vendor},
          {"productName", vm.product_name},
          {"hypervisorFlag", vm.hypervisor_flag ? boost::json::value(*vm.hypervisor_flag)
                                                : boost::json::value(nullptr)},
          {"virtualMachine", !markers.empty()},
          {"markers", std::move(markers)}};
}

}  // namespace icheck::rules::node
