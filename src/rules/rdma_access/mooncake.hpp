#pragma once
// The Mooncake transfer engine's own needs in one pod, when Mooncake moves its KV (SGLang's
// default --disaggregation-transfer-backend, TRT-LLM's MOONCAKE cache transceiver): it opens the
// HCAs itself, with RoCE v2 GIDs, outside NIXL and UCX. Pure. Findings in rdma-access, each
// naming Mooncake:
//   "mooncake tcp"      fail when MC_FORCE_TCP is set: KV goes over TCP (kvcache-ai/Mooncake #1811)
//   "mooncake devices"  fail when --disaggregation-ib-device or MC_MS_FILTERS names an HCA the pod
//                       has not been given (warn when which HCAs are the pod's is unknown)
//   "mooncake gid"      per RoCE port it would use: a RoCE v2 IPv4 GID is ok (optional); only IPv6
//                       ones warn (Mooncake before kvcache-ai/Mooncake #1597: "No suitable GID",
//                       #1593), only link-local ones warn (not routable across subnets, #2747), no
//                       RoCE v2 one fails (it uses RoCE v2 only, PR #113); MC_GID_INDEX naming no
//                       RoCE v2 entry fails; skipped (optional) when the GID tables were not read
// Nothing when the pod has no RoCE port and sets nothing of the kind.

#include "probe/facts.hpp"
#include "report/model.hpp"
#include "rules/nixl/nixl_backend.hpp"

#include <vector>

namespace icheck::rules {

std::vector<report::Finding> judge_mooncake(const probe::NodeFacts& node, const KvBackends& b);

}  // namespace icheck::rules
