#pragma once
// The link facts of one target as JSON (internal to src/rules; node_facts_json adds them as
// "links"): per port of the pod's HCAs its MTUs, subnet prefix and error counters, and the MTU of
// each netdev of the pod's network namespace.

#include "probe/facts.hpp"

#include <boost/json/object.hpp>

namespace icheck::rules {

boost::json::object link_facts_json(const probe::NodeFacts& f);

}  // namespace icheck::rules
