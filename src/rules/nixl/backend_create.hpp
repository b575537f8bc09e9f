#pragma once
// NIXL's own answer for the backend a pod's KV transfer uses: the plugins nixl._api lists in a
// fresh python3 process and whether its agent could create the backend (probe/nixl/
// nixl_agent_facts.hpp). A plugin file that loads but whose backend cannot be created fails
// here with NIXL's own error. Pure.

#include "probe/nixl/nixl_facts.hpp"
#include "report/model.hpp"

#include <optional>
#include <string>

namespace icheck::rules {

// "<backend> backend"; nullopt when NIXL was not asked (no python3, nixl._api not importable:
// the python import finding says so) or the backend is not one the probe creates.
std::optional<report::Finding> backend_created(const probe::NixlFacts& facts,
                                               const std::string& backend);

}  // namespace icheck::rules
