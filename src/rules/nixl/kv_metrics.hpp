#pragma once
// What a worker's own KV-transfer metrics say (probe/metrics/): two reads of its metrics pages
// a few seconds apart, judged in the nixl layer. Pure.
//   kv-failures  fail   a failure counter grew between the reads (vLLM's NIXL connector:
//                       vllm:nixl_num_failed_transfers / _notifications; SGLang:
//                       sglang:num_transfer_failed_reqs / num_bootstrap_failed_reqs; NIXL
//                       telemetry: agent_errors_total)
//   kv-traffic   ok     KV moved by live traffic at line-rate class (bytes over transfer time,
//                       >= half the pod's KV port line rate): evidence like the transfer test,
//                       said as "observed traffic" in the verdict; warn (optional) when slower,
//                       or the line rate or transfer time is unknown; skipped when nothing moved
//   kv-received  warn   a decode worker served requests but received no KV (vLLM: external KV
//                       tokens and NIXL bytes unchanged; SGLang: its KV transfer figures unchanged)
//   kv-metrics   skipped (optional) no reader in the image, every read failed, or no KV family
//                       exposed: never ok
// Every finding names its evidence: the metric, its two values, the interval and the endpoint.

#include "dynamo/role.hpp"
#include "probe/metrics/metrics_reads.hpp"
#include "report/model.hpp"

#include <boost/json/object.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace icheck::rules {

struct KvMetricsInput {
  dynamo::Role role = dynamo::Role::unknown;
  std::vector<probe::MetricsEndpoint> endpoints;  // asked; empty: none in the pod spec
  std::optional<probe::MetricsReads> reads;       // nullopt: the reader did not run
  std::string not_run;                            // why it did not run or ended early
  std::chrono::milliseconds interval{3000};       // asked between the reads
  std::optional<double> line_rate_gbps;           // the pod's KV ports (Gb/s), when known
};

struct KvMetricsJudgement {
  std::vector<report::Finding> findings;
  boost::json::object facts;  // facts.kvMetrics
};

KvMetricsJudgement judge_kv_metrics(const KvMetricsInput& in);

}  // namespace icheck::rules
