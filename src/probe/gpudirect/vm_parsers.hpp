#pragma once
// Parser for the vm_markers section and the step that fills NodeFacts::vm. Pure.

#include "probe/facts.hpp"

#include <string_view>

namespace icheck::probe {

VmMarkers parse_vm_markers(std::string_view out);
void read_vm(NodeFacts& f);

}  // namespace icheck::probe
