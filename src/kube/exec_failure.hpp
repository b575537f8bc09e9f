#pragma once
// Telling apart why a `kubectl exec` into a pod failed, from what the child left behind:
// each kind gets its own one-line detail and the next command that settles it.

#include <chrono>
#include <string>

namespace icheck::kube {

enum class ExecFailureKind {
  none,                // exit 0
  kubectl_missing,     // the kubectl binary is not there
  spawn_failed,        // kubectl is there but could not be started (out of descriptors, ...)
  interrupted,         // SIGINT/SIGTERM stopped the run before this pod was done
  output_capped,       // kubectl passed the output cap and was killed
  forbidden,           // RBAC: pods/exec not allowed
  unauthorized,        // credentials rejected
  pod_gone,            // deleted since it was listed
  container_not_found, // -c names a container the pod lacks
  completed_pod,       // phase Succeeded/Failed, refused by kubectl itself
  no_shell,            // the image has no sh
  connection_refused,  // API server unreachable
  timed_out,           // our deadline killed the child
  command_failed,      // the probe script itself exited non-zero
  other,
};

struct ExecOutcome {
  int exit_code = 0;
  std::string stderr_text;
  bool timed_out = false;
  bool not_found = false;    // no kubectl binary to run
  std::string spawn_error;   // kubectl could not be started for another reason
  int interrupt_signal = 0;  // SIGINT/SIGTERM stopped it (or it never started because of one)
  bool truncated = false;    // its output passed the cap and it was killed
  bool stdout_empty = false; // nothing came back: with 126/127 the shell never started
};

struct ExecTarget {
  std::string pod;
  std::string namespace_;
  std::string container;
  std::string kubectl = "kubectl";
  std::chrono::milliseconds timeout{30000};
};

struct ExecFailure {
  ExecFailureKind kind = ExecFailureKind::none;
  std::string detail;    // one line
  std::string next_step; // a command or an instruction; "" for none
};

ExecFailure classify_exec_failure(const ExecOutcome& outcome, const ExecTarget& target);

} // namespace icheck::kube
