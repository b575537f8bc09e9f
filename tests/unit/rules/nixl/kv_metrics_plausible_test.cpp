// Issue 40: metrics get the transfer test's plausibility rule. A figure beyond the line rate or a
// counter below zero is a reading to distrust, said as such: never ok (observed traffic, which
// would confirm the verdict) and never fail (failures "growing" from -100 to -50).
#include "rules/nixl/kv_metrics.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

namespace {

const probe::MetricsEndpoint kDynamo{"dynamo", 9090, "/metrics", "DYN_SYSTEM_PORT=9090"};

probe::MetricsRead page(const std::string& text, double time) {
  probe::MetricsRead r;
  r.ok = true;
  r.time = time;
  r.page = probe::parse_prometheus_text(text);
  return r;
}

// synthetic: Prometheus text exposition of vLLM's NIXL connector families (the names
// tests/fixtures/metrics/vllm-decode-traffic-*.prom carry), with impossible values.
rules::KvMetricsInput read_twice(const std::string& first, const std::string& second) {
  rules::KvMetricsInput in;
  in.role = dynamo::Role::prefill;
  in.endpoints = {kDynamo};
  probe::MetricsReads reads;
  reads.reader = "python3";
  reads.complete = true;
  reads.endpoints.push_back({kDynamo, page(first, 1000.0), page(second, 1003.0)});
  in.reads = reads;
  in.line_rate_gbps = 400;  // 50 GB/s
  return in;
}

const report::Finding* find(const rules::KvMetricsJudgement& j, const std::string& name) {
  auto it = std::find_if(j.findings.begin(), j.findings.end(),
                         [&](const auto& f) { return f.name == name; });
  return it == j.findings.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("kv metrics: 1e12 GB/s is a reading to distrust, not observed traffic") {
  const auto j = rules::judge_kv_metrics(
      read_twice("vllm:nixl_bytes_transferred_sum 0\nvllm:nixl_xfer_time_seconds_sum 0\n",
                 "vllm:nixl_bytes_transferred_sum 1e21\nvllm:nixl_xfer_time_seconds_sum 1\n"));
  const auto* f = find(j, "kv-traffic");
  REQUIRE(f != nullptr);
  CHECK(f->status == Status::warn);
  CHECK_FALSE(f->is_observed_traffic);
  CHECK_FALSE(f->required);
  CHECK(f->detail.find("a reading to distrust") != std::string::npos);
}

TEST_CASE("kv metrics: failure counters below zero are not failures growing") {
  const auto j = rules::judge_kv_metrics(read_twice("vllm:nixl_num_failed_transfers_total -100\n",
                                                    "vllm:nixl_num_failed_transfers_total -50\n"));
  CHECK(find(j, "kv-failures") == nullptr);
  const auto* f = find(j, "kv-metrics");
  REQUIRE(f != nullptr);
  CHECK(f->status == Status::warn);
  CHECK_FALSE(f->required);
  CHECK(f->detail ==
        "counters below zero, which no counter can be: vllm:nixl_num_failed_transfers_total -100 "
        "-> -50: a reading to distrust, not judged");
}
