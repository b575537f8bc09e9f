#pragma once
// From probed pods to report targets: the parts every pod mode shares (heading words, the
// skipped finding of a pod that could not be probed, disagg shape of the selection).

#include "check/pod_probe.hpp"
#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::check {

// "4 worker pods (2 prefill, 2 decode) on 3 nodes"
std::string pods_phrase(const std::vector<kube::PodInfo>& pods);

// Pods of a disaggregated deployment: any of them has the prefill or decode role.
bool is_disagg(const std::vector<kube::PodInfo>& pods);

// The target's name, role, node; and, when the pod could not be probed (not running, exec
// failed, output cut), the skipped finding at `layer` that says why. Returns true when the
// probe's output can be parsed.
bool start_target(const PodProbe& probe, report::Layer layer, const RunOptions& run,
                  report::Target& target);

}  // namespace icheck::check
