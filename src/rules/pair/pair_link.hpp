#pragma once
// node, nixl and all: the RDMA path between a prefill and a decode pod, from both pods' facts
// (the pairs the transfer test would use, rules/pair/pairing.hpp). What makes it impossible or
// fragile although each pod alone looks healthy: link layers that differ (fail), MTUs that
// differ (NCCL #1524: QP errors and hangs), InfiniBand subnet prefixes that differ, RoCE GID
// types or address families that do not meet (warn). Pure: facts in, findings out.

#include "dynamo/role.hpp"
#include "probe/facts.hpp"
#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::rules {

struct PairPod {
  std::string name;
  std::string node;
  const probe::NodeFacts* facts = nullptr;
};

struct PairLinkFindings {
  std::vector<report::Finding> prefill;  // for the prefill pod
  std::vector<report::Finding> decode;   // for the decode pod
};

// Each finding names both pods and nodes; nothing when the path looks sound or either side's
// ports are unknown.
PairLinkFindings pair_link_findings(const PairPod& prefill, const PairPod& decode);

}  // namespace icheck::rules
