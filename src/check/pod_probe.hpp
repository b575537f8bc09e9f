#pragma once
// One `kubectl exec POD -c C -- sh -c SCRIPT` per probeable pod, in parallel, bounded; or the
// same script under the local /bin/sh for --local.

#include "check/kube_session.hpp"
#include "check/pod_exec.hpp"
#include "check/pod_metrics.hpp"
#include "check/pod_read.hpp"
#include "exec/child.hpp"
#include "kube/exec_failure.hpp"
#include "kube/pods.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icheck::check {

struct PodProbe {
  kube::PodInfo pod;
  std::optional<exec::ChildResult> result;  // absent: not probeable, never exec'd
  kube::ExecFailure failure;                // kind none: the script ran and exited 0
  std::optional<PodReads> reads;            // its log and events (pod_read.hpp), when asked
  std::optional<MetricsRun> metrics;        // its KV-transfer metrics (pod_metrics.hpp), when asked
};

// Each exec goes through `pod_exec` (either transport). With `reads`, every pod's log and
// events are read in the same pass (pod_read.hpp), also of pods that cannot be probed. With
// `metrics_interval`, each pod the probe reached has its KV-transfer metrics read after it.
std::vector<PodProbe> probe_pods(const KubeSession& session, PodExec& pod_exec,
                                 const std::vector<kube::PodInfo>& pods, const std::string& script,
                                 const RunOptions& run, const ReadLimits* reads = nullptr,
                                 std::optional<std::chrono::milliseconds> metrics_interval = {});

exec::ChildResult probe_local(const std::string& script, const RunOptions& run);

}  // namespace icheck::check
