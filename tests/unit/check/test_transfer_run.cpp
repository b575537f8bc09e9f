// run_transfer against a fake kubectl (a shell script standing in for `kubectl exec`): the
// decode side prints a real nixlbench table, or hangs to show the deadline.
#include "check/transfer_run.hpp"
#include "exec/child.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace icheck;
namespace fs = std::filesystem;

namespace {

struct FakeKubectl {
  fs::path dir;
  fs::path program;
  explicit FakeKubectl(const std::string& body) {
    dir = fs::temp_directory_path() / ("icheck-fake-kubectl-" + std::to_string(getpid()));
    fs::create_directories(dir);
    program = dir / "kubectl";
    std::ofstream(program) << "#!/bin/sh\n" << body;
    fs::permissions(program, fs::perms::owner_all);
  }
  ~FakeKubectl() { fs::remove_all(dir); }
};

rules::TransferPlan plan_for(const FakeKubectl& k, int timeout_s) {
  rules::PairCandidate p, d;
  p.pod = "llm-prefill-0";
  p.namespace_ = "dynamo";
  p.node = "n1";
  p.pod_ip = "10.0.0.1";
  p.role = dynamo::Role::prefill;
  p.container = "main";
  d.pod = "llm-decode-0";
  d.namespace_ = "dynamo";
  d.node = "n2";
  d.pod_ip = "10.0.0.2";
  d.role = dynamo::Role::decode;
  d.container = "main";
  p.nixl.tools.nixlbench = d.nixl.tools.nixlbench =
      probe::NixlBench{"/usr/local/nixlbench/bin/nixlbench", true};
  rules::PairingOptions o;
  o.kubectl_base = {k.program.string()};
  o.timeout_s = timeout_s;
  return rules::plan_transfer({p, d}, o);
}

} // namespace

TEST_CASE("transfer run: decode prints the nixlbench table, judged against line rate") {
  std::string fixture =
      std::string(ICHECK_TEST_DATA) +
      "/fixtures/transfer/nixlbench/storage-gds-kvbench-null-runtime-single-row-nixl1332.txt";
  FakeKubectl k(
      "case \"$*\" in\n"
      "  *'exec llm-decode-0 -n dynamo -c main -i -- timeout 60 sh -c '*' icheck-transfer "
      "/usr/local/nixlbench/bin/nixlbench --runtime_type ASIO --asio_address 10.0.0.2'*) cat '" +
      fixture +
      "' ;;\n"
      "  *'exec llm-prefill-0'*) echo 'ASIO runtime bind/listen error -- using connect() instead' "
      ";;\n"
      "  *) echo \"unexpected: $*\" >&2; exit 3 ;;\n"
      "esac\n");
  auto plan = plan_for(k, 60);
  REQUIRE(plan.runnable);
  check::TransferRunOptions o;
  o.head_start = std::chrono::milliseconds(50);
  auto outcome = check::run_transfer(plan, o);
  CHECK(outcome.listener.ran);
  CHECK(outcome.listener.exit_code == 0);
  CHECK(outcome.initiator.exit_code == 0);
  auto f = rules::judge_transfer(outcome, 200.0); // 25 GB/s line: 9.7 GB/s is below half
  CHECK(f.status == report::Status::warn);
  CHECK(f.detail.starts_with(
      "nixlbench (ASIO) llm-prefill-0 (node n1) -> llm-decode-0 (node n2): 9.7 GB/s"));
}

TEST_CASE("transfer run: a hanging side is killed at the deadline and judged skipped") {
  FakeKubectl k("exec sleep 30\n");
  auto plan = plan_for(k, 1);
  check::TransferRunOptions o;
  o.head_start = std::chrono::milliseconds(10);
  o.kill_grace = std::chrono::milliseconds(200);
  auto start = std::chrono::steady_clock::now();
  auto outcome = check::run_transfer(plan, o);
  auto took = std::chrono::steady_clock::now() - start;
  CHECK(took < std::chrono::seconds(10));
  CHECK(outcome.listener.timed_out);
  CHECK(outcome.initiator.timed_out);
  auto f = rules::judge_transfer(outcome, 400.0);
  CHECK(f.status == report::Status::skipped);
  CHECK(f.detail == "transfer test never connected within 1 s");
}

TEST_CASE("transfer run: a plan that is not runnable runs nothing") {
  rules::TransferPlan plan;
  plan.why_not = "no prefill and decode pod";
  auto outcome = check::run_transfer(plan);
  CHECK_FALSE(outcome.listener.ran);
  CHECK(outcome.listener.start_error == "no prefill and decode pod");
  CHECK(rules::judge_transfer(outcome, 400.0).status == report::Status::skipped);
}

namespace {

// The remote wrapper alone, run here: `sh -c SCRIPT icheck-transfer TOOL...`.
exec::ChildResult run_wrapped(std::vector<std::string> tool, bool hold_stdin,
                              std::chrono::milliseconds deadline) {
  std::vector<std::string> argv = {"kubectl", "exec", "x", "--", "timeout", "30"};
  argv.insert(argv.end(), tool.begin(), tool.end());
  auto tied = rules::stdin_tied(argv);
  exec::ChildSpec spec;
  spec.argv.assign(tied.begin() + 5, tied.end()); // from `timeout`
  spec.hold_stdin = hold_stdin;
  spec.deadline = deadline;
  return exec::run_child(spec);
}

} // namespace

TEST_CASE("transfer wrapper: stdin at EOF (the exec stream closed) ends the test at once") {
  auto start = std::chrono::steady_clock::now();
  auto r = run_wrapped({"sleep", "20"}, false, std::chrono::seconds(15)); // /dev/null: EOF now
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 143); // the tool's death by SIGTERM, passed on
}

TEST_CASE("transfer wrapper: a held stdin lets the tool finish and pass its output and status") {
  auto r = run_wrapped({"sh", "-c", "echo bandwidth; exit 3"}, true, std::chrono::seconds(15));
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.out == "bandwidth\n");
  auto hang = run_wrapped({"sleep", "20"}, true, std::chrono::milliseconds(800));
  CHECK(hang.timed_out); // held open, only the deadline ends it
}
