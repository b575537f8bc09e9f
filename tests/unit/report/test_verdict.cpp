#include "report/render.hpp"
#include "report/verdict.hpp"
#include "sample_report.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

Report two_pods(Status decode_memlock) {
  Report r;
  r.mode = "node";
  r.targets.push_back(pod("p-0", "prefill", "n1",
                          {finding("ports", Layer::fabric, Status::ok, "8/8 Active"),
                           finding("memlock", Layer::rdma_access, Status::ok, "CAP_IPC_LOCK")}));
  r.targets.push_back(
      pod("d-0", "decode", "n2",
          {finding("ports", Layer::fabric, Status::ok, "8/8 Active"),
           finding("memlock", Layer::rdma_access, decode_memlock, "64 KiB", "add IPC_LOCK")}));
  return r;
}

}  // namespace

TEST_CASE("all ok without a transfer is surface-ok, exit 0") {
  const auto v = decide(two_pods(Status::ok));
  CHECK(v.status == VerdictStatus::surface_ok);
  CHECK(v.summary == "surface-ok: every required check is ok on 2 pods");
  CHECK(exit_code(v.status) == 0);
}

TEST_CASE("an error beside targets that are all ok is unconfirmed, never surface-ok, exit 1") {
  // `all RECIPE` whose deployment has no running worker pods: the manifest was judged, the pods
  // it was asked for could not be.
  auto r = two_pods(Status::ok);
  r.errors.push_back("no Dynamo worker pods found for deployment d in namespace dynamo");
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::unconfirmed);
  CHECK(v.summary == "unconfirmed: not everything asked could be checked: no Dynamo worker pods "
                     "found for deployment d in namespace dynamo");
  CHECK(exit_code(v.status) == 1);
}

TEST_CASE("a fail names the first blocking layer and the pods, exit 2") {
  auto r = two_pods(Status::fail);
  r.targets[0].findings.push_back(finding("peer-memory", Layer::gpudirect, Status::fail, "none"));
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::blocked);
  REQUIRE(v.layer);
  CHECK(*v.layer == Layer::rdma_access);
  CHECK(v.summary == "blocked at rdma-access on the only decode pod: d-0 (memlock: 64 KiB)");
  CHECK(v.next == std::vector<std::string>{"add IPC_LOCK"});
  CHECK(exit_code(v.status) == 2);
}

TEST_CASE("pods of one role are counted among that role's pods") {
  Report r;
  r.mode = "node";
  for (int i = 0; i < 8; ++i) {
    const auto n = std::to_string(i);
    r.targets.push_back(pod("p-" + n, "prefill", "n" + n,
                            {finding("devices", Layer::rdma_access, Status::ok, "uverbs0-7")}));
    r.targets.push_back(
        pod("d-" + n, "decode", "m" + n,
            {finding("devices", Layer::rdma_access, i < 3 ? Status::fail : Status::ok,
                     "/dev/infiniband not mounted")}));
  }
  CHECK(decide(r).summary == "blocked at rdma-access on 3 of 8 decode pods: d-0, d-1, d-2 "
                             "(devices: /dev/infiniband not mounted)");
  for (int i = 3; i < 8; ++i)
    r.targets[2 * i + 1].findings[0].status = Status::fail;
  CHECK(decide(r).summary.starts_with(
      "blocked at rdma-access on all 8 decode pods: d-0, d-1, d-2 and 5 more ("));
  r.targets[0].findings[0].status = Status::fail;  // roles differ: counted among all pods
  CHECK(decide(r).summary.starts_with(
      "blocked at rdma-access on 9 of 16 pods: p-0, d-0, d-1 and 6 more ("));
}

TEST_CASE("warn or skipped on a required check is unconfirmed, exit 1") {
  const auto v = decide(two_pods(Status::skipped));
  CHECK(v.status == VerdictStatus::unconfirmed);
  CHECK(v.summary == "unconfirmed at rdma-access on the only decode pod: d-0 (memlock: 64 KiB)");
  CHECK(exit_code(v.status) == 1);
}

TEST_CASE("an optional warn does not spoil surface-ok") {
  auto r = two_pods(Status::ok);
  auto gdr = finding("gdrcopy", Layer::gpudirect, Status::warn, "absent");
  gdr.required = false;
  r.targets[1].findings.push_back(gdr);
  CHECK(decide(r).status == VerdictStatus::surface_ok);
}

TEST_CASE("a passing transfer confirms, even with a skipped surface check") {
  auto r = two_pods(Status::skipped);
  auto t = finding("transfer", Layer::nixl, Status::ok, "42 GB/s");
  t.is_transfer = true;
  r.targets[0].findings.push_back(t);
  CHECK(decide(r).status == VerdictStatus::confirmed);
  CHECK(exit_code(VerdictStatus::confirmed) == 0);
  SUBCASE("but never where the transport is not exercised") {
    r.transport_not_exercised = true;
    CHECK(decide(r).status == VerdictStatus::unconfirmed);
  }
}

TEST_CASE("one slow pair among passing ones is not confirmed, and the verdict names it") {
  auto r = two_pods(Status::ok);
  auto fast = finding("transfer", Layer::nixl, Status::ok, "42 GB/s");
  fast.is_transfer = true;
  auto slow = finding("transfer", Layer::nixl, Status::warn, "12 GB/s: below half of line rate");
  slow.is_transfer = true;
  r.targets[0].findings.push_back(fast);
  r.targets[1].findings.push_back(slow);
  r.transfer_summary = "slowest pair: p-0 (node a) -> d-0 (node b), 12.0 GB/s";
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::unconfirmed);
  CHECK(v.summary.ends_with("; slowest pair: p-0 (node a) -> d-0 (node b), 12.0 GB/s"));
  r.targets[1].findings.back().status = Status::ok;
  CHECK(decide(r).status == VerdictStatus::confirmed);
}

TEST_CASE("a failed transfer still blocks") {
  auto r = two_pods(Status::ok);
  auto t = finding("transfer", Layer::nixl, Status::fail, "1.1 GB/s: TCP");
  t.is_transfer = true;
  r.targets[0].findings.push_back(t);
  CHECK(decide(r).status == VerdictStatus::blocked);
}

TEST_CASE("KV moved by live traffic at line-rate class confirms as observed traffic") {
  auto r = two_pods(Status::skipped);
  auto seen = finding("kv-traffic", Layer::nixl, Status::ok, "40.0 GB/s per transfer");
  seen.is_observed_traffic = true;
  seen.required = false;
  r.targets[1].findings.push_back(seen);
  auto v = decide(r);
  CHECK(v.status == VerdictStatus::confirmed);
  CHECK(v.summary == "confirmed: observed traffic: the workers' own metrics show KV moved at "
                     "line-rate class on 1 pod (d-0)");
  CHECK(std::find(v.limitations.begin(), v.limitations.end(),
                  "no transfer test ran: the evidence is the traffic the workers served while "
                  "they were read") != v.limitations.end());
  SUBCASE("a decode worker elsewhere that received no KV keeps it unconfirmed") {
    r.targets[0].findings.push_back(finding("kv-received", Layer::nixl, Status::warn,
                                            "decode served requests but received no KV"));
    CHECK(decide(r).status == VerdictStatus::unconfirmed);
  }
  SUBCASE("a transfer test that ran decides, not the traffic") {
    auto t = finding("transfer", Layer::nixl, Status::skipped, "never connected");
    t.is_transfer = true;
    r.targets[0].findings.push_back(t);
    CHECK(decide(r).status == VerdictStatus::unconfirmed);
  }
  SUBCASE("failures that grew still block") {
    r.targets[1].findings.push_back(finding("kv-failures", Layer::nixl, Status::fail, "2 -> 9"));
    CHECK(decide(r).status == VerdictStatus::blocked);
  }
}

TEST_CASE("nothing to check is an error, exit 3") {
  Report r;
  r.errors.push_back("no manifest in /x");
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::error);
  CHECK(v.summary == "no manifest in /x");
  CHECK(exit_code(v.status) == 3);
}

TEST_CASE("next steps and limitations are de-duplicated") {
  auto r = two_pods(Status::fail);
  r.targets[0].findings[1] =
      finding("memlock", Layer::rdma_access, Status::fail, "64 KiB", "add IPC_LOCK");
  r.limitations = {"no transfer", "no transfer"};
  const auto v = decide(r);
  CHECK(v.next.size() == 1);
  CHECK(v.limitations == std::vector<std::string>{"no transfer"});
  CHECK(v.summary == "blocked at rdma-access on 2 of 2 pods: p-0, d-0 (memlock: 64 KiB)");
}

// A run that could not go on (`error`, exit 3) or was cut short by a signal (`interrupted`):
// what was gathered stays in the report, the status says it did not finish.

TEST_CASE("a stopped run is an error whatever its gathered targets say") {
  auto r = two_pods(Status::ok);
  r.stopped = "kubectl get pods did not answer within 30s";
  r.errors.push_back(r.stopped);
  const auto v = decide(r);
  CHECK(v.status == VerdictStatus::error);
  CHECK(v.summary == "kubectl get pods did not answer within 30s");
  CHECK(exit_code(v.status) == 3);
}

TEST_CASE("the same targets, not stopped, are surface-ok (the stop is what made the error)") {
  CHECK(decide(two_pods(Status::ok)).status == VerdictStatus::surface_ok);
}

TEST_CASE("an interrupted run says so, with what it had found so far") {
  auto r = two_pods(Status::fail);
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
