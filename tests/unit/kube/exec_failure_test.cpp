#include "kube/exec_failure.hpp"

#include <doctest/doctest.h>

using namespace icheck::kube;

namespace {

const ExecTarget kTarget{"llm-decode-0", "dynamo", "main", "kubectl", std::chrono::seconds(30)};

ExecFailure classify(int code, std::string stderr_text, bool stdout_empty = false) {
  ExecOutcome outcome;
  outcome.exit_code = code;
  outcome.stderr_text = std::move(stderr_text);
  outcome.stdout_empty = stdout_empty;
  return classify_exec_failure(outcome, kTarget);
}

} // namespace

TEST_CASE("exit 0 is no failure") {
  CHECK(classify(0, "some warning\n").kind == ExecFailureKind::none);
}

TEST_CASE("kubectl missing: not found, or the launcher's 127") {
  ExecOutcome outcome;
  outcome.not_found = true;
  auto failure = classify_exec_failure(outcome, kTarget);
  CHECK(failure.kind == ExecFailureKind::kubectl_missing);
  CHECK(failure.detail == "could not run \"kubectl\": not found on PATH");
  CHECK(failure.next_step == "install kubectl, or set DYNAMO_ICHECK_KUBECTL to its path");
  CHECK(classify(127, "sh: 1: kubectl: not found\n").kind == ExecFailureKind::kubectl_missing);
}

TEST_CASE("RBAC forbidden names the user and the verb") {
  auto failure = classify(
      1,
      "Error from server (Forbidden): pods \"llm-decode-0\" is forbidden: User "
      "\"system:serviceaccount:default:ci\" cannot create resource \"pods/exec\" in API group \"\" "
      "in the namespace \"dynamo\"\n");
  CHECK(failure.kind == ExecFailureKind::forbidden);
  CHECK(failure.detail == "pods/exec not allowed for User \"system:serviceaccount:default:ci\" in "
                          "namespace \"dynamo\" (RBAC: cannot create)");
  CHECK(failure.next_step == "kubectl auth can-i create pods/exec -n dynamo");
  auto get =
      classify(1, "Error from server (Forbidden): pods \"x\" is forbidden: User \"42\" cannot "
                  "get resource \"pods/exec\" in API group \"\" in the namespace \"demo\"\n");
  CHECK(get.next_step == "kubectl auth can-i get pods/exec -n dynamo");
}

TEST_CASE("unauthorized") {
  auto failure = classify(1, "error: You must be logged in to the server (Unauthorized)\n");
  CHECK(failure.kind == ExecFailureKind::unauthorized);
  CHECK(failure.next_step == "kubectl auth whoami");
  CHECK(classify(1, "error: unable to upgrade connection: Unauthorized\n").kind ==
        ExecFailureKind::unauthorized);
}

TEST_CASE("pod gone") {
  auto failure = classify(1, "Error from server (NotFound): pods \"llm-decode-0\" not found\n");
  CHECK(failure.kind == ExecFailureKind::pod_gone);
  CHECK(failure.detail ==
        "pod \"llm-decode-0\" no longer exists (deleted or replaced since it was listed)");
  CHECK(failure.next_step == "kubectl get pods -n dynamo");
}

TEST_CASE("container not found: apiserver and kubectl wordings") {
  for (const auto* text :
       {"Error from server (BadRequest): container main is not valid for pod llm-decode-0\n",
        "error: container main not found in pod llm-decode-0\n",
        "error: container main is not valid for pod llm-decode-0 out of: vllm, side\n"}) {
    auto failure = classify(1, text);
    CHECK(failure.kind == ExecFailureKind::container_not_found);
    CHECK(failure.detail == "container \"main\" not found in pod \"llm-decode-0\"");
    CHECK(failure.next_step ==
          "kubectl get pod llm-decode-0 -n dynamo -o jsonpath='{.spec.containers[*].name}'");
  }
}

TEST_CASE("no shell: runc's 126 / containerd's internal error / a bare 127 with no output") {
  auto runc = classify(
      126,
      "OCI runtime exec failed: exec failed: container_linux.go:345: starting container process "
      "caused \"exec: \\\"sh\\\": executable file not found in $PATH\": unknown\n"
      "command terminated with exit code 126\n");
  CHECK(runc.kind == ExecFailureKind::no_shell);
  CHECK(runc.detail == "no sh in container \"main\": the image has no POSIX shell");
  auto containerd = classify(
      1,
      "error: Internal error occurred: error executing command in container: failed to exec in "
      "container: failed to start exec \"fc7e\": OCI runtime exec failed: exec failed: unable to "
      "start container process: exec: \"sh\": executable file not found in $PATH: unknown\n");
  CHECK(containerd.kind == ExecFailureKind::no_shell);
  CHECK(classify(127, "command terminated with exit code 127\n", true).kind ==
        ExecFailureKind::no_shell);
  // 127 after the script printed something: a command inside the script was missing.
  CHECK(
      classify(127, "sh: ibstat: not found\ncommand terminated with exit code 127\n", false).kind ==
      ExecFailureKind::command_failed);
}

TEST_CASE("the script's own non-zero exit / its stderr not mistaken for kubectl's") {
  auto failure =
      classify(3, "cat: /sys/x: not found in pod\ncommand terminated with exit code 3\n");
  CHECK(failure.kind == ExecFailureKind::command_failed);
  CHECK(failure.detail == "probe script exited with code 3: cat: /sys/x: not found in pod");
  CHECK(failure.next_step == "kubectl exec llm-decode-0 -n dynamo -c main -- sh -c true");
  CHECK(classify(42, "command terminated with exit code 42\n").detail ==
        "probe script exited with code 42");
}

TEST_CASE("timeout wins over whatever the killed child wrote") {
  ExecOutcome outcome;
  outcome.timed_out = true;
  outcome.exit_code = -9;
  outcome.stderr_text = "Error from server (NotFound): pods \"x\" not found\n";
  auto failure = classify_exec_failure(outcome, kTarget);
  CHECK(failure.kind == ExecFailureKind::timed_out);
  CHECK(failure.detail == "timed out after 30s");
  auto short_target = kTarget;
  short_target.timeout = std::chrono::milliseconds(500);  // --timeout 500ms once said "after 0s"
  CHECK(classify_exec_failure(outcome, short_target).detail == "timed out after 500ms");
}

TEST_CASE("connection refused and completed pod") {
  auto refused = classify(1, "The connection to the server localhost:8080 was refused - did you "
                             "specify the right host or port?\n");
  CHECK(refused.kind == ExecFailureKind::connection_refused);
  CHECK(refused.detail == "API server localhost:8080 refused the connection");
  CHECK(refused.next_step == "kubectl cluster-info");
  auto completed = classify(1, "error: cannot exec into a container in a completed pod; current "
                               "phase is Succeeded\n");
  CHECK(completed.kind == ExecFailureKind::completed_pod);
  CHECK(completed.detail == "pod has completed (phase Succeeded); nothing runs in it to probe");
}

TEST_CASE("anything else: kubectl's last line") {
  auto failure =
      classify(1, "E1130 memcache.go:265] x\nerror: error reading from error stream: "
                  "next reader: websocket: close 1006 (abnormal closure): unexpected EOF\n");
  CHECK(failure.kind == ExecFailureKind::other);
  CHECK(failure.detail == "error: error reading from error stream: next reader: websocket: close "
                          "1006 (abnormal closure): unexpected EOF");
  CHECK(classify(1, "").detail == "kubectl exec exited with code 1");
}

TEST_CASE("out of descriptors is said as such, not as kubectl missing") {
  ExecOutcome outcome;
  outcome.exit_code = -1;
  outcome.spawn_error = "Too many open files";
  auto failure = classify_exec_failure(outcome, kTarget);
  CHECK(failure.kind == ExecFailureKind::spawn_failed);
  CHECK(failure.detail == "could not start \"kubectl\": Too many open files");
}

TEST_CASE("a kubectl stopped at the output cap names the cap, not exit code -1") {
  ExecOutcome outcome;
  outcome.exit_code = -1;
  outcome.truncated = true;
  auto failure = classify_exec_failure(outcome, kTarget);
  CHECK(failure.kind == ExecFailureKind::output_capped);
  CHECK(failure.detail.find("-1") == std::string::npos);
  CHECK(failure.detail.find("cap") != std::string::npos);
}

TEST_CASE("an interrupted exec names the signal") {
  ExecOutcome outcome;
  outcome.exit_code = -1;
  outcome.interrupt_signal = 15;
  auto failure = classify_exec_failure(outcome, kTarget);
  CHECK(failure.kind == ExecFailureKind::interrupted);
  CHECK(failure.detail == "interrupted by SIGTERM before the probe of this pod finished");
}
