// The metrics reader's output as typed reads (probe/metrics/metrics_reads.hpp): the reader, each
// read's time and kept samples or its error; a marker inside a page is text.
#include "probe/metrics/metrics_reads.hpp"
#include "probe/metrics/metrics_script.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

namespace {

const std::string kMark = "@@icheck-abc:";

std::string section(const std::string& name, const std::string& body, const std::string& rc) {
  return "\n" + kMark + "begin " + name + "@@\n" + body + "\n" + kMark + "end " + name +
         " rc=" + rc + "@@\n";
}

}  // namespace

TEST_CASE("metrics reads: two reads of one endpoint, and one refused") {
  const std::vector<MetricsEndpoint> eps{{"dynamo", 9090, "/metrics", "DYN_SYSTEM_PORT=9090"},
                                         {"nixl-telemetry", 19090, "/metrics", "x"}};
  const std::string raw =
      "@@icheck:meta version=1 timeout=gnu nonce=abc@@\n" + section("reader", "python3", "0") +
      section("read1-0",
              "@t 1733220000.250\nvllm:request_success_total 10\n@@icheck:end read1-0 rc=1@@",
              "0") +
      section("read1-1", "@error ConnectionRefusedError: [Errno 111] Connection refused", "1") +
      section("read2-0", "@t 1733220003.300\nvllm:request_success_total 12", "0") +
      section("read2-1", "@error ConnectionRefusedError: [Errno 111] Connection refused", "1") +
      "\n" + kMark + "done@@\n";
  const auto reads = parse_metrics_reads(raw, eps);
  CHECK(reads.complete);
  CHECK(reads.reader == "python3");
  REQUIRE(reads.endpoints.size() == 2);
  const auto& dyn = reads.endpoints[0];
  CHECK(dyn.first.ok);
  CHECK(dyn.first.time == doctest::Approx(1733220000.25));
  CHECK(metric_sum(dyn.first.page, "vllm:request_success_total") == doctest::Approx(10));
  CHECK(dyn.first.page.malformed == 0);  // a marker without this run's nonce is text, not a sample
  CHECK(metric_sum(dyn.second.page, "vllm:request_success_total") == doctest::Approx(12));
  CHECK_FALSE(reads.endpoints[1].first.ok);
  CHECK(reads.endpoints[1].first.error.starts_with("ConnectionRefusedError"));
}

TEST_CASE("metrics reads: no reader in the image, or output cut short") {
  const std::vector<MetricsEndpoint> eps{{"dynamo", 9090, "/metrics", ""}};
  auto reads = parse_metrics_reads("@@icheck:meta version=1 timeout=tree nonce=abc@@\n" + kMark +
                                       "begin reader@@\n" + kMark + "end reader rc=absent@@\n" +
                                       kMark + "done@@\n",
                                   eps);
  CHECK(reads.complete);
  CHECK(reads.reader.empty());
  CHECK_FALSE(reads.endpoints[0].first.ok);
  reads = parse_metrics_reads("@@icheck:meta version=1 timeout=gnu nonce=abc@@\n" +
                                  section("reader", "curl", "0") + kMark + "begin read1-0@@\n@t 17",
                              eps);
  CHECK_FALSE(reads.complete);
  CHECK(reads.reader == "curl");
  CHECK(reads.endpoints[0].first.error == "the read was cut short");
}

TEST_CASE("metrics reads: busybox date without nanoseconds still gives the second") {
  const std::vector<MetricsEndpoint> eps{{"dynamo", 9090, "/metrics", ""}};
  const auto reads = parse_metrics_reads(
      "@@icheck:meta version=1 timeout=tree nonce=abc@@\n" + section("reader", "curl", "0") +
          section("read1-0", "@t 1733220000.%N\nx 1", "0") +
          section("read2-0", "@t 1733220003.123456789\nx 2", "0"),
      eps);
  CHECK(reads.endpoints[0].first.time == doctest::Approx(1733220000.0));
  CHECK(reads.endpoints[0].second.time == doctest::Approx(1733220003.123456789));
}

TEST_CASE("metrics script: endpoints as arguments, the interval and its own bound") {
  const auto script = metrics_reader_script({{"dynamo", 9090, "/metrics", ""}},
                                            std::chrono::milliseconds(2500), "abc");
  CHECK(script.starts_with("ICHECK_NONCE=abc\nICHECK_GAP=3\n"));
  CHECK(script.find("set -- 9090:/metrics\n") != std::string::npos);
  CHECK(script.find("-L") == std::string::npos);  // never follow a redirect
  // The python travels inside sh -c '...': no single quote in it.
  const auto begin = script.find("python3 -c '") + 12;
  const auto end = script.find("' \"$ICHECK_MARK\"", begin);
  REQUIRE(end != std::string::npos);
  CHECK(script.substr(begin, end - begin).find('\'') == std::string::npos);
  CHECK(metrics_reader_budget(2, std::chrono::milliseconds(3000)) ==
        std::chrono::milliseconds(3000 + 20000 + 5000));
}
