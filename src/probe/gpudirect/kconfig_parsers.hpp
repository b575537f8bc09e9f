#pragma once
// Parser for the kernel_config section and the step that fills NodeFacts::kernel_config. Pure.

#include "probe/facts.hpp"

#include <string_view>

namespace icheck::probe {

KernelConfig parse_kernel_config(std::string_view out);
void read_kernel_config(NodeFacts& f);

}  // namespace icheck::probe
