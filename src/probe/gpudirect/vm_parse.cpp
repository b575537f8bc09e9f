#include "probe/gpudirect/vm_parsers.hpp"
#include "util/text.hpp"

#include <array>
#include <utility>

namespace icheck::probe {
namespace {

// DMI strings hypervisors put in a guest (QEMU/KVM, Hyper-V and Azure, VMware, Xen, VirtualBox,
// OpenStack, Nutanix AHV, Google Compute Engine). Amazon EC2 fills sys_vendor on bare-metal
// instances too, so only its product names of VMs count ("*.metal" is not one).
constexpr std::array<std::pair<const char*, const char*>, 10> kVmDmi = {{
    {"QEMU", ""},
    {"Microsoft Corporation", "Virtual Machine"},
    {"VMware, Inc.", ""},
    {"Xen", ""},
    {"innotek GmbH", ""},
    {"OpenStack Foundation", ""},
    {"Nutanix", "AHV"},
    {"Google", "Google Compute Engine"},
    {"Red Hat", "KVM"},
    {"", "KVM"},
}};

bool dmi_says_vm(const VmMarkers& m) {
  for (const auto& [vendor, product] : kVmDmi) {
    bool vendor_ok = *vendor == '\0' || m.sys_vendor == vendor;
    bool product_ok = *product == '\0' || text::contains(m.product_name, product);
    if (vendor_ok && product_ok && (*vendor != '\0' || !m.product_name.empty()))
      return true;
  }
  return m.sys_vendor == "Amazon EC2" && !m.product_name.empty() &&
         !m.product_name.ends_with(".metal");
}

}  // namespace

std::vector<std::string> VmMarkers::markers() const {
  std::vector<std::string> out;
  if (hypervisor_flag == true)
    out.emplace_back("CPU flag hypervisor");
  if (dmi_says_vm(*this)) {
    out.push_back("sys_vendor " + sys_vendor);
    if (!product_name.empty())
      out.push_back("product_name " + product_name);
  }
  return out;
}

VmMarkers parse_vm_markers(std::string_view out) {
  VmMarkers m;
  for (auto line : text::lines(out)) {
    auto space = line.find(' ');
    if (space == std::string_view::npos)
      continue;
    auto key = line.substr(0, space);
    auto value = text::trim(line.substr(space + 1));
    if (key == "sys_vendor")
      m.sys_vendor = value;
    else if (key == "product_name")
      m.product_name = value;
    else if (key == "cpu_flag")
      m.hypervisor_flag = value == "hypervisor";
  }
  return m;
}

void read_vm(NodeFacts& f) {
  if (const Tool* t = f.tool("vm_markers"); t && t->found)
    f.vm = parse_vm_markers(t->output);
}

}  // namespace icheck::probe
