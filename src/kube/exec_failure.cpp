// Message texts matched here, and where they were seen:
// - RBAC: `Error from server (Forbidden): pods "yb-master-0" is forbidden: User
//   "system:serviceaccount:default:yugaware" cannot create resource "pods/exec" in API group ""
//   in the namespace "yb-dev-yugabyte-db"` (yugabyte/yugabyte-db#1285); the WebSocket
//   executor asks with verb get: `... cannot get resource "pods/exec" ...` (lensapp/lens#950).
// - Unauthorized: `error: You must be logged in to the server (Unauthorized)`
//   (kubernetes/minikube#4481), `error: unable to upgrade connection: Unauthorized`
//   (canonical/microk8s#2500).
// - Pod gone: `Error from server (NotFound): pods "deployment" not found`
//   (jpetazzo/container.training#441).
// - Container: apiserver `container %s is not valid for pod %s` (pkg/registry/core/pod/
//   strategy.go validateContainer, kubernetes/kubernetes#133444); kubectl podcmd
//   `container %s not found in pod %s`, newer `container %s is not valid for pod %s out of: ...`.
// - No shell: `OCI runtime exec failed: exec failed: container_linux.go:345: starting container
//   process caused "exec: \"sh\": executable file not found in $PATH": unknown` then
//   `command terminated with exit code 126` (aylei/kubectl-debug#30); containerd's
//   `error: Internal error occurred: error executing command in container: failed to exec in
//   container: ... OCI runtime exec failed: exec failed: unable to start container process:
//   exec: "ps": executable file not found in $PATH: unknown` (nigelpoulton/TheK8sBook#30);
//   `exec: "/bin/sh": stat /bin/sh: no such file or directory` (cert-manager#3784); some
//   runtimes only report exit 127 for `sh -c` (skyhook-io/radar#538).
// - Exit code: `command terminated with exit code 42` and kubectl exits 42; completed pod:
//   `cannot exec into a container in a completed pod; current phase is %s`; connection:
//   `The connection to the server localhost:8080 was refused - did you specify the right host
//   or port?` (shared/reference/kubectl.md §1.6, §3.3, observed with kubectl 1.31).
#include "kube/exec_failure.hpp"

#include "kube/denial.hpp"
#include "util/duration.hpp"
#include "util/signal_name.hpp"

#include <csignal>
#include <optional>
#include <sstream>
#include <vector>

namespace icheck::kube {
namespace {

bool has(const std::string& text, std::string_view needle) {
  return text.find(needle) != std::string::npos;
}

// The last line that says something: kubectl's own error comes last, after relayed output.
std::string last_line(const std::string& text, std::string_view skip_prefix = {}) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    if (!skip_prefix.empty() && line.rfind(skip_prefix, 0) == 0)
      continue;
    last = line;
  }
  return last;
}

std::string where(const ExecTarget& t) {
  return t.pod + " -n " + t.namespace_;
}

std::string try_exec(const ExecTarget& t) {
  return "kubectl exec " + where(t) + " -c " + t.container + " -- sh -c true";
}

bool is_no_shell(const ExecOutcome& o) {
  const auto& err = o.stderr_text;
  if (has(err, "exec: \"sh\"") || has(err, "exec: \\\"sh\\\"") || has(err, "stat /bin/sh")) {
    return true;
  }
  if (has(err, "OCI runtime exec failed") && has(err, "executable file not found"))
    return true;
  // `sh -c` that never started: nothing on stdout and the shell's "cannot run" codes.
  const bool shell_code = o.exit_code == 126 || o.exit_code == 127;
  return shell_code && o.stdout_empty && has(err, "command terminated with exit code 12");
}

ExecFailure no_shell(const ExecTarget& t) {
  return {ExecFailureKind::no_shell,
          "no sh in container \"" + t.container + "\": the image has no POSIX shell",
          "the probe needs sh in the image; inspect it with: kubectl debug -it " + where(t) +
              " --image=busybox --target=" + t.container + " (adds an ephemeral container)"};
}

ExecFailure forbidden(const ExecOutcome& o, const ExecTarget& t) {
  const auto denied = denial(o.stderr_text, "pods/exec");
  const auto& who = denied.user;
  auto action = denied.verb;
  if (action.empty())
    action = "create";
  return {ExecFailureKind::forbidden,
          "pods/exec not allowed for " + (who.empty() ? "this user" : "User \"" + who + "\"") +
              " in namespace \"" + t.namespace_ + "\" (RBAC: cannot " + action + ")",
          "kubectl auth can-i " + action + " pods/exec -n " + t.namespace_};
}

ExecFailure completed(const ExecOutcome& o, const ExecTarget& t) {
  auto current = word_after(o.stderr_text, "current phase is ");
  return {ExecFailureKind::completed_pod,
          "pod has completed (phase " + (current.empty() ? "Succeeded/Failed" : current) +
              "); nothing runs in it to probe",
          "kubectl get pod " + where(t)};
}

ExecFailure connection_refused(const ExecOutcome& o) {
  auto host = token_between(o.stderr_text, "The connection to the server ", " was refused");
  return {ExecFailureKind::connection_refused,
          "API server " + (host.empty() ? "" : host + " ") + "refused the connection",
          "kubectl cluster-info"};
}

ExecFailure command_failed(const ExecOutcome& o, const ExecTarget& t) {
  auto detail = "probe script exited with code " + std::to_string(o.exit_code);
  auto said = last_line(o.stderr_text, "command terminated with exit code");
  if (!said.empty())
    detail += ": " + said;
  return {ExecFailureKind::command_failed, detail, try_exec(t)};
}

bool kubectl_missing(const ExecOutcome& o) {
  if (o.not_found)
    return true;
  // A launcher shell reports a missing program as 127 without kubectl's remote-exit line.
  return o.exit_code == 127 && !has(o.stderr_text, "command terminated") &&
         (has(o.stderr_text, "not found") || has(o.stderr_text, "No such file"));
}

ExecFailure classify_by_text(const ExecOutcome& o, const ExecTarget& t) {
  const auto& err = o.stderr_text;
  if (has(err, "(Forbidden)") || has(err, "is forbidden: User"))
    return forbidden(o, t);
  if (has(err, "(Unauthorized)") || has(err, "unable to upgrade connection: Unauthorized")) {
    return {ExecFailureKind::unauthorized, "the API server rejected the credentials (Unauthorized)",
            "kubectl auth whoami"};
  }
  if (has(err, "cannot exec into a container in a completed pod"))
    return completed(o, t);
  if (is_no_shell(o))
    return no_shell(t);
  if (has(err, "is not valid for pod") || has(err, "not found in pod") ||
      has(err, "container not found")) {
    return {ExecFailureKind::container_not_found,
            "container \"" + t.container + "\" not found in pod \"" + t.pod + "\"",
            "kubectl get pod " + where(t) + " -o jsonpath='{.spec.containers[*].name}'"};
  }
  if (has(err, "(NotFound)") && has(err, "pods \"")) {
    return {ExecFailureKind::pod_gone,
            "pod \"" + t.pod + "\" no longer exists (deleted or replaced since it was listed)",
            "kubectl get pods -n " + t.namespace_};
  }
  if (has(err, "The connection to the server") && has(err, "was refused")) {
    return connection_refused(o);
  }
  return {ExecFailureKind::none, "", ""};
}

ExecFailure interrupted(int signal) {
  return {ExecFailureKind::interrupted,
          "interrupted by " + signal_name(signal) + " before the probe of this pod finished", ""};
}

// Causes that are ours, not kubectl's: they come before anything kubectl said.
std::optional<ExecFailure> own_cause(const ExecOutcome& o, const ExecTarget& t) {
  if (o.interrupt_signal != 0)
    return interrupted(o.interrupt_signal);
  if (!o.spawn_error.empty()) {
    return ExecFailure{ExecFailureKind::spawn_failed,
                       "could not start \"" + t.kubectl + "\": " + o.spawn_error, ""};
  }
  if (o.truncated) {
    return ExecFailure{ExecFailureKind::output_capped,
                       "kubectl's output passed the cap and kubectl was stopped", try_exec(t)};
  }
  return std::nullopt;
}

} // namespace

ExecFailure classify_exec_failure(const ExecOutcome& outcome, const ExecTarget& target) {
  if (auto own = own_cause(outcome, target))
    return *own;
  if (outcome.timed_out) {
    return {ExecFailureKind::timed_out,
            "timed out after " + format_duration(target.timeout),
            try_exec(target) + "  (or raise --timeout)"};
  }
  if (kubectl_missing(outcome)) {
    return {ExecFailureKind::kubectl_missing,
            "could not run \"" + target.kubectl + "\": not found on PATH",
            "install kubectl, or set DYNAMO_ICHECK_KUBECTL to its path"};
  }
  if (outcome.exit_code == 0)
    return {};
  // The remote command ran (or its shell failed to start): what else is on stderr is the
  // script's own output and must not be mistaken for kubectl's errors.
  if (has(outcome.stderr_text, "command terminated with exit code")) {
    if (is_no_shell(outcome))
      return no_shell(target);
    return command_failed(outcome, target);
  }
  if (auto known = classify_by_text(outcome, target); known.kind != ExecFailureKind::none) {
    return known;
  }
  auto said = last_line(outcome.stderr_text);
  return {ExecFailureKind::other,
          said.empty() ? "kubectl exec exited with code " + std::to_string(outcome.exit_code)
                       : said,
          try_exec(target)};
}

} // namespace icheck::kube
