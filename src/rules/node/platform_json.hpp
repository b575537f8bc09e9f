#pragma once
// The platform facts of one target as JSON (internal to src/rules; node_facts_json adds them).

#include "probe/facts.hpp"
#include "probe/parsers.hpp"

#include <boost/json/object.hpp>

namespace icheck::rules {

boost::json::object platform_facts_json(const probe::PlatformFacts& platform);

} // namespace icheck::rules
