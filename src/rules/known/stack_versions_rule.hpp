#pragma once
// stack-versions (nixl layer): which KV libraries' versions could not be read, and which have
// copies that disagree (`nixl` 1.3.1 beside a `nixl-cu12` 1.3.0 wheel: which one loads decides
// the behaviour). Never ok: a disagreement warns; an unknown version is listed as an optional
// warn, since no known-trouble row can place it (only where the image holds some KV library the
// probe could name). Nothing when the probe read no stack section or every version the KV path
// depends on is known and agrees. Pure.

#include "knowledge/facts.hpp"
#include "probe/stack/stack_versions.hpp"
#include "report/model.hpp"
#include "rules/nixl/nixl_backend.hpp"

#include <optional>

namespace icheck::rules::known {

std::optional<report::Finding> stack_versions_finding(const probe::StackVersions& stack,
                                                      const knowledge::FactMap& facts,
                                                      const KvBackends& backends);

}  // namespace icheck::rules::known
