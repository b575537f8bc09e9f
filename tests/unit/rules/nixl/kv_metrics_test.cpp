// What the workers' own KV-transfer metrics say (rules/nixl/kv_metrics.hpp): failures that grew
// fail at nixl, KV moved at line-rate class is observed traffic, a decode worker serving without
// receiving KV warns, and nothing read is skipped with why, never ok. Each finding names the
// metric, its two values and the interval.
#include "../../probe/fixture.hpp"
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

rules::KvMetricsInput read_twice(const std::string& first, const std::string& second,
                                 dynamo::Role role = dynamo::Role::decode) {
  rules::KvMetricsInput in;
  in.role = role;
  in.endpoints = {kDynamo};
  probe::MetricsReads reads;
  reads.reader = "python3";
  reads.complete = true;
  reads.endpoints.push_back({kDynamo, page(first, 1000.0), page(second, 1003.0)});
  in.reads = reads;
  in.line_rate_gbps = 400;  // one NDR port: 50 GB/s
  return in;
}

rules::KvMetricsInput fixtures(const std::string& name, dynamo::Role role = dynamo::Role::decode) {
  return read_twice(probe::test::fixture("metrics/" + name + "-1.prom"),
                    probe::test::fixture("metrics/" + name + "-2.prom"), role);
}

const report::Finding* find(const rules::KvMetricsJudgement& j, const std::string& name) {
  auto it = std::find_if(j.findings.begin(), j.findings.end(),
                         [&](const auto& f) { return f.name == name; });
  return it == j.findings.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("kv metrics: KV moved at line-rate class is observed traffic") {
  const auto j = rules::judge_kv_metrics(fixtures("vllm-decode-traffic"));
  REQUIRE(j.findings.size() == 1);
  const auto& f = j.findings[0];
  CHECK(f.name == "kv-traffic");
  CHECK(f.layer == report::Layer::nixl);
  CHECK(f.status == Status::ok);
  CHECK(f.is_observed_traffic);
  CHECK_FALSE(f.is_transfer);
  // 6 GB over 0.15 s of transfer time: 40 GB/s, 80 % of 50 GB/s.
  CHECK(f.detail ==
        "KV moved by live traffic: vllm:nixl_bytes_transferred_sum 120000000000 -> 126000000000 "
        "in 3.0 s (100 transfers), vllm:nixl_xfer_time_seconds_sum 3 -> 3.15 in 3.0 s "
        "(127.0.0.1:9090/metrics, DYN_SYSTEM_PORT=9090); 40.0 GB/s per transfer (80 % of "
        "50.0 GB/s line rate): observed traffic");
  CHECK(j.facts.at("reader").as_string() == "python3");
  CHECK(j.facts.at("counters").as_object().at("gbPerSecond").as_double() == doctest::Approx(40));
}

TEST_CASE("kv metrics: the same traffic below half of line rate, or without a line rate, warns") {
  auto in = fixtures("vllm-decode-traffic");
  in.line_rate_gbps = 800;  // 100 GB/s
  auto j = rules::judge_kv_metrics(in);
  REQUIRE(j.findings.size() == 1);
  CHECK(j.findings[0].status == Status::warn);
  CHECK_FALSE(j.findings[0].required);
  CHECK_FALSE(j.findings[0].is_observed_traffic);
  CHECK(j.findings[0].detail.ends_with("(40 % of 100.0 GB/s line rate): below half of line rate"));
  CHECK(j.findings[0].next.find("nixl --transfer") != std::string::npos);
  in.line_rate_gbps.reset();
  j = rules::judge_kv_metrics(in);
  CHECK(j.findings[0].status == Status::warn);
  CHECK(j.findings[0].detail.ends_with("the KV ports' line rate is unknown, so not judged"));
}

TEST_CASE("kv metrics: failures that grew fail at nixl naming both values and the interval") {
  const auto j = rules::judge_kv_metrics(fixtures("vllm-decode-failing"));
  const auto* f = find(j, "kv-failures");
  REQUIRE(f != nullptr);
  CHECK(f->status == Status::fail);
  CHECK(f->required);
  CHECK(f->layer == report::Layer::nixl);
  CHECK(f->detail ==
        "KV transfers failing now: vllm:nixl_num_failed_transfers_total 2 -> 9 in 3.0 s; "
        "vllm:nixl_num_failed_notifications_total 0 -> 1 in 3.0 s "
        "(127.0.0.1:9090/metrics, DYN_SYSTEM_PORT=9090)");
  CHECK(f->next.starts_with("kubectl logs <pod>"));
}

TEST_CASE("kv metrics: the interval is the pod's own clock, a whole-second one read as such") {
  auto in = read_twice("vllm:nixl_num_failed_transfers_total 1\n",
                       "vllm:nixl_num_failed_transfers_total 2\n");
  in.reads->endpoints[0].first.time = 1000.25;
  in.reads->endpoints[0].second.time = 1003.75;
  CHECK(rules::judge_kv_metrics(in).findings[0].detail.find("1 -> 2 in 3.5 s") !=
        std::string::npos);
  in.reads->endpoints[0].first.time = 1000;
  in.reads->endpoints[0].second.time = 1004;  // busybox date: 3.x s between the reads
  CHECK(rules::judge_kv_metrics(in).findings[0].detail.find("1 -> 2 in 3.0 s") !=
        std::string::npos);
  in.reads->endpoints[0].second.time = 1009;  // a slow read: at least 8 s
  CHECK(rules::judge_kv_metrics(in).findings[0].detail.find("1 -> 2 in 8.0 s") !=
        std::string::npos);
  in.reads->endpoints[0].second.time.reset();  // no clock: the interval asked
  CHECK(rules::judge_kv_metrics(in).findings[0].detail.find("1 -> 2 in 3.0 s") !=
        std::string::npos);
}

TEST_CASE("kv metrics: a counter that went down (the engine restarted) is not a failure") {
  const auto j = rules::judge_kv_metrics(read_twice("vllm:nixl_num_failed_transfers_total 9\n",
                                                    "vllm:nixl_num_failed_transfers_total 0\n"));
  CHECK(find(j, "kv-failures") == nullptr);
}

TEST_CASE("kv metrics: a decode worker that served requests but received no KV warns") {
  const auto j = rules::judge_kv_metrics(fixtures("vllm-decode-no-kv"));
  REQUIRE(j.findings.size() == 1);
  const auto& f = j.findings[0];
  CHECK(f.name == "kv-received");
  CHECK(f.status == Status::warn);
  CHECK(f.required);
  CHECK(f.detail ==
        "decode served requests but received no KV: vllm:request_success_total 100 -> 130 in "
        "3.0 s; vllm:prompt_tokens_by_source_total{source=\"external_kv_transfer\"} 0 -> 0 in "
        "3.0 s, no KV-transfer bytes counted (127.0.0.1:9090/metrics, DYN_SYSTEM_PORT=9090)");
  // The same page on a prefill worker says nothing about received KV.
  const auto prefill =
      rules::judge_kv_metrics(fixtures("vllm-decode-no-kv", dynamo::Role::prefill));
  CHECK(find(prefill, "kv-received") == nullptr);
  REQUIRE(prefill.findings.size() == 1);
  CHECK(prefill.findings[0].status == Status::skipped);
  CHECK(prefill.findings[0].detail ==
        "no KV moved in the 3.0 s between the two reads: nothing observed");
}

TEST_CASE("kv metrics: SGLang's transfer histograms and NIXL telemetry's byte counters") {
  auto j = rules::judge_kv_metrics(
      read_twice("sglang:kv_transfer_total_mb_count 10\nsglang:kv_transfer_total_mb_sum 1000\n"
                 "sglang:kv_transfer_speed_gb_s_count 10\nsglang:kv_transfer_speed_gb_s_sum 300\n",
                 "sglang:kv_transfer_total_mb_count 30\nsglang:kv_transfer_total_mb_sum 5000\n"
                 "sglang:kv_transfer_speed_gb_s_count 30\nsglang:kv_transfer_speed_gb_s_sum 1100\n",
                 dynamo::Role::prefill));
  REQUIRE(j.findings.size() == 1);
  CHECK(j.findings[0].status == Status::ok);  // 800 / 20 = 40 GB/s
  CHECK(j.findings[0].detail.find("sglang:kv_transfer_total_mb_sum 1000 -> 5000") !=
        std::string::npos);
  j = rules::judge_kv_metrics(
      read_twice("agent_tx_bytes_total{agent_name=\"a\"} 0\nagent_xfer_time_us_sum 0\n",
                 "agent_tx_bytes_total{agent_name=\"a\"} 2e9\nagent_xfer_time_us_sum 1e6\n"));
  REQUIRE(j.findings.size() == 1);
  CHECK(j.findings[0].status == Status::warn);  // 2 GB/s: TCP class
  CHECK(j.findings[0].detail.find("agent_tx_bytes_total 0 -> 2000000000") != std::string::npos);
  CHECK(j.findings[0].detail.find("TCP class") != std::string::npos);
  j = rules::judge_kv_metrics(read_twice("agent_errors_total{status=\"NIXL_ERR_BACKEND\"} 1\n",
                                         "agent_errors_total{status=\"NIXL_ERR_BACKEND\"} 4\n"));
  REQUIRE(find(j, "kv-failures") != nullptr);
  CHECK(find(j, "kv-failures")->detail.find("agent_errors_total 1 -> 4") != std::string::npos);
}

TEST_CASE("kv metrics: nothing read is skipped with why, never ok") {
  rules::KvMetricsInput none;
  none.role = dynamo::Role::decode;
  auto j = rules::judge_kv_metrics(none);
  CHECK(j.findings.empty());  // no endpoint in the spec: the facts say so
  CHECK_FALSE(j.facts.at("read").as_bool());

  auto in = read_twice("", "");
  in.reads->reader.clear();
  in.reads->endpoints[0].first = {};
  in.reads->endpoints[0].second = {};
  j = rules::judge_kv_metrics(in);
  REQUIRE(j.findings.size() == 1);
  CHECK(j.findings[0].name == "kv-metrics");
  CHECK(j.findings[0].status == Status::skipped);
  CHECK_FALSE(j.findings[0].required);
  CHECK(j.findings[0].detail ==
        "KV-transfer metrics not read: neither python3 nor curl in the image");

  in = read_twice("", "");
  in.reads->endpoints[0].first = {
      false, std::nullopt, {}, "curl: (7) Failed to connect to 127.0.0.1 port 9090"};
  j = rules::judge_kv_metrics(in);
  REQUIRE(j.findings.size() == 1);
  CHECK(j.findings[0].status == Status::skipped);
  CHECK(j.findings[0].detail == "KV-transfer metrics not read: 127.0.0.1:9090/metrics: curl: (7) "
                                "Failed to connect to 127.0.0.1 port 9090");

  j = rules::judge_kv_metrics(
      read_twice("process_cpu_seconds_total 1\n", "process_cpu_seconds_total 2\n"));
  REQUIRE(j.findings.size() == 1);
  CHECK(j.findings[0].status == Status::skipped);
  CHECK(
      j.findings[0].detail.starts_with("no KV-transfer metric exposed at 127.0.0.1:9090/metrics"));

  in = read_twice("", "");
  in.reads.reset();
  in.not_run = "the metrics reader timed out";
  j = rules::judge_kv_metrics(in);
  CHECK(j.findings[0].detail == "KV-transfer metrics not read: the metrics reader timed out");
}

// Issue 40: the transfer test's plausibility rule. A figure beyond the line rate or a counter
// below zero is a reading to distrust, said as such: never ok (observed traffic, which would
// confirm the verdict) and never fail (failures "growing" from -100 to -50). The pages are
// synthetic: Prometheus text of the families the vllm-decode-traffic fixtures carry, with
// impossible values.

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
