#pragma once
// A worker's own KV-transfer metrics, read in the probes' parallel pass: one bounded exec of
// the metrics reader (probe/metrics/metrics_script.hpp) per probeable pod whose spec names a
// metrics endpoint, reading each twice `interval` apart from 127.0.0.1 inside the pod; judged by
// rules/nixl/kv_metrics.hpp once the pod's facts (its KV ports' line rate) are known.

#include "check/kube_session.hpp"
#include "check/options.hpp"
#include "check/pod_exec.hpp"
#include "exec/child.hpp"
#include "kube/pods.hpp"
#include "probe/facts.hpp"
#include "probe/metrics/metrics_endpoints.hpp"
#include "rules/nixl/kv_metrics.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace icheck::check {

struct MetricsRun {
  std::vector<probe::MetricsEndpoint> endpoints;  // from the pod spec; empty: nothing ran
  std::optional<exec::ChildResult> result;        // the reader's exec
  std::chrono::milliseconds interval{0};
};

// Runs the reader when the pod names an endpoint (else only the empty endpoints).
MetricsRun read_pod_metrics(PodExec& pod_exec, const KubeSession& session, const kube::PodInfo& pod,
                            std::chrono::milliseconds interval, const std::string& nonce);

// The judgement of what was read; line_rate_gbps: the pod's KV ports, when known.
rules::KvMetricsJudgement judge_pod_metrics(const MetricsRun& run, const kube::PodInfo& pod,
                                            std::optional<double> line_rate_gbps);

}  // namespace icheck::check
