#pragma once
// Raw output of the node probe script -> NodeFacts. Pure: only parsing and assembling.

#include <string_view>

#include "probe/facts.hpp"
#include "probe/sections.hpp"

namespace icheck::probe {

// Exit statuses that mean "killed by the script's deadline": coreutils timeout (124),
// busybox timeout / the sh fallback (SIGTERM 143, SIGKILL 137).
bool timed_out_status(int rc);

Tool tool_from_section(const Section& section);

NodeFacts parse_node_probe(std::string_view raw);
// The same from output already split (a pod's output is split once for node and NIXL facts).
NodeFacts parse_node_probe(const ProbeOutput& out);

}  // namespace icheck::probe
