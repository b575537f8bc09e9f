// The verdict of a run that could not go on (`error`, exit 3) or was cut short by a signal
// (`interrupted`): what was gathered stays in the report, the status says it did not finish.

#include "report/render.hpp"
#include "report/verdict.hpp"
#include "sample_report.hpp"

#include <doctest/doctest.h>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

Report one_pod(Status memlock) {
  Report r;
  r.mode = "all";
  r.targets.push_back(
      pod("d-0", "decode", "n2",
          {finding("memlock", Layer::rdma_access, memlock, "64 KiB", "add IPC_LOCK")}));
  return r;
}

}  // namespace

TEST_CASE("a stopped run is an error whatever its gathered targets say") {
  auto r = one_pod(Status::ok);
  r.stopped = "kubectl get pods did not answer within 30s";
  r.errors.push_back(r.stopped);
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::error);
  CHECK(v.summary == "kubectl get pods did not answer within 30s");
  CHECK(exit_code(v.status) == 3);
}

TEST_CASE("the same targets, not stopped, are surface-ok (the stop is what made the error)") {
  CHECK(decide(one_pod(Status::ok)).status == VerdictStatus::surface_ok);
}

TEST_CASE("an interrupted run says so, with what it had found so far") {
  auto r = one_pod(Status::fail);
  r.interrupted = "SIGHUP";
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::interrupted);
  CHECK(to_string(v.status) == "interrupted");
  CHECK(v.summary.starts_with("interrupted by SIGHUP (so far: blocked at rdma-access"));
  CHECK(v.headline.starts_with("by SIGHUP (so far: blocked at rdma-access"));
  CHECK(v.limitations.back() == "interrupted by SIGHUP: only what was gathered before it is shown");
  CHECK(v.next == std::vector<std::string>{"add IPC_LOCK"});
}

TEST_CASE("interrupted wins over stopped: the signal is why the run did not go on") {
  Report r;
  r.mode = "node";
  r.stopped = "interrupted before kubectl get pods finished";
  r.errors.push_back(r.stopped);
  r.interrupted = "SIGINT";
  CHECK(decide(r).status == VerdictStatus::interrupted);
}

TEST_CASE("a stopped run renders as one JSON Report with its reason in errors[]") {
  Report r;
  r.mode = "node";
  r.stopped = "error loading config file \"/dev/zero\": not a regular file (a character device)";
  r.errors.push_back(r.stopped);
  const auto json = render(r, decide(r), {Format::json, false, false, false});
  CHECK(json.find("\"status\": \"error\"") != std::string::npos);
  CHECK(json.find("\"errors\": [\n    \"error loading config file \\\"/dev/zero\\\"") !=
        std::string::npos);
}

TEST_CASE("an error line from the outside is cut, saying how much more there was") {
  Report r;
  r.mode = "env";
  r.stopped = "x.yaml: no DynamoGraphDeployment (" + std::string(5000, 'k') + ")";
  r.errors.push_back(r.stopped);
  const auto yaml = render(r, decide(r), {Format::yaml, false, false, false});
  CHECK(yaml.find(std::string(1900, 'k')) != std::string::npos);
  CHECK(yaml.find(std::string(2000, 'k')) == std::string::npos);
  CHECK(yaml.find("… (3035 more bytes)") != std::string::npos);
}
