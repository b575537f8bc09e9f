// The Prometheus text format as the engines print it (probe/metrics/prometheus_text.hpp): labels
// with escapes, histograms' _sum/_count beside their buckets, counters' _created siblings, a
// family that is not exposed is unknown (never zero), and a malformed line is skipped.
#include "../fixture.hpp"
#include "probe/metrics/prometheus_text.hpp"

#include <cmath>
#include <doctest/doctest.h>

using namespace icheck::probe;

TEST_CASE("prometheus text: a vLLM decode worker's page under Dynamo") {
  const auto page = parse_prometheus_text(test::fixture("metrics/vllm-decode-traffic-2.prom"));
  CHECK(page.malformed == 0);
  CHECK(metric_sum(page, "vllm:nixl_bytes_transferred_sum") == doctest::Approx(1.26e11));
  CHECK(metric_sum(page, "vllm:nixl_xfer_time_seconds_count") == doctest::Approx(2100));
  CHECK(metric_sum(page, "vllm:request_success_total") == doctest::Approx(600));
  CHECK(metric_sum(page, "vllm:prompt_tokens_by_source_total",
                   {{"source", "external_kv_transfer"}}) == doctest::Approx(1.96608e6));
  // The counter's _created sibling is another sample, not part of the counter.
  CHECK(metric_sum(page, "vllm:nixl_num_failed_transfers_total") == doctest::Approx(0));
  CHECK(metric_sum(page, "vllm:nixl_num_failed_transfers_created") ==
        doctest::Approx(1.7649953119e9));
  CHECK_FALSE(metric_sum(page, "sglang:kv_transfer_speed_gb_s").has_value());
}

TEST_CASE("prometheus text: a label that matches nothing still says the family is exposed") {
  const auto page =
      parse_prometheus_text("vllm:prompt_tokens_by_source_total{source=\"local_compute\"} 10\n");
  CHECK(metric_sum(page, "vllm:prompt_tokens_by_source_total",
                   {{"source", "external_kv_transfer"}}) == doctest::Approx(0));
}

TEST_CASE("prometheus text: escapes, special values, timestamps, blanks and broken lines") {
  const auto page = parse_prometheus_text(
      "# HELP x a \"help\" line\n"
      "  agent_errors_total{hostname=\"h\\\"1\",status=\"NIXL_ERR_BACKEND\"} 3 1733220000000\r\n"
      "agent_errors_total{status=\"a,b\\\\c\"} 2\n"
      "nan_metric NaN\n"
      "inf_metric +Inf\n"
      "broken{status=\"x} 1\n"
      "no_value\n"
      "sglang:kv_transfer_speed_gb_s{model_name=\"m\"} 4.25e+01\n");
  CHECK(page.malformed == 2);
  REQUIRE(page.samples.size() == 5);
  CHECK(page.samples[0].labels.at("hostname") == "h\"1");
  CHECK(page.samples[1].labels.at("status") == "a,b\\c");
  CHECK(metric_sum(page, "agent_errors_total") == doctest::Approx(5));
  CHECK(metric_sum(page, "agent_errors_total", {{"status", "NIXL_ERR_BACKEND"}}) ==
        doctest::Approx(3));
  CHECK(std::isnan(page.samples[2].value));
  CHECK(std::isinf(page.samples[3].value));
  CHECK(metric_sum(page, "sglang:kv_transfer_speed_gb_s") == doctest::Approx(42.5));
}
