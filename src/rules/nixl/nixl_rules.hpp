#pragma once
// nixl layer: what NIXL install one pod has (probe::NixlFacts) judged. Pure: facts in,
// findings out. The transfer itself is judged in transfer_rules.hpp.

#include <string>
#include <vector>

#include "probe/nixl/nixl_facts.hpp"
#include "report/model.hpp"
#include "rules/nixl/nixl_backend.hpp"

namespace icheck::rules {

struct NixlContext {
  KvBackends backends;  // the backend(s) this pod's KV transfer uses (nixl_backend.hpp)
  // The next step when the image has no transfer tool (plan_transfer fills one in with this
  // deployment's names); a generic one is used when empty.
  std::string no_tool_next;
};

// Findings, names in order: "kv transfer" (ok, optional: the KV path, nixl_backend.hpp; a required
// warn when KvBackends::unknown), "install", "<backend> plugin" (one per backend), "python import"
// (when python3 exists), "versions" (optional), "efa" (EFA devices only), "ucx copies", "tools"
// (optional), "transfer" (skipped, optional, only when no test tool exists; never ok). When the
// framework moves KV without NIXL (KvBackends::via_nixl() false), install, plugin and import
// findings are optional: a fail among them reads as a warn.
std::vector<report::Finding> judge_nixl(const probe::NixlFacts& facts, const NixlContext& ctx);

// The generic next step for an image without nixlbench, nixl_test or ucx_perftest.
std::string no_transfer_tool_next();

}  // namespace icheck::rules
