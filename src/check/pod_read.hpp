#pragma once
// What the workers already say, read (never written, never followed) in the probes' parallel
// pass: the chosen container's recent log, its previous instance's log when it restarted, and
// the pod's events. Through the run's kubectl proxy (stream/http_get.hpp) or, with
// --transport=kubectl or when the proxy refuses, `kubectl logs` / `kubectl get events` children.

#include "check/kube_session.hpp"
#include "check/pod_exec.hpp"
#include "kube/pods.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace icheck::check {

// One read's outcome, the same by either transport.
struct ReadResult {
  enum class Outcome { read, forbidden, absent, failed };
  Outcome outcome = Outcome::failed;
  std::string body;        // read: the log text or the events list (JSON)
  bool truncated = false;  // read: cut at the cap
  std::string why;         // forbidden, absent, failed: the server's or kubectl's one line
};

struct PodReads {
  std::optional<ReadResult> current;   // absent: not asked (the container never started)
  std::optional<ReadResult> previous;  // asked when the container restarted
  std::optional<ReadResult> events;    // asked for every pod the API server knows
};

struct ReadLimits {
  long tail_lines = 2000;
  long limit_bytes = 512 * 1024;  // per log
  long events = 200;              // most events listed per pod
  std::chrono::milliseconds deadline{30'000};
};

// Which reads a pod gets: its log when its container runs or ran, the previous one when it
// restarted, its events always. Pure.
bool reads_current_log(const kube::PodInfo& pod);
bool reads_previous_log(const kube::PodInfo& pod);

PodReads read_pod(PodExec& pod_exec, const KubeSession& session, const kube::PodInfo& pod,
                  const ReadLimits& limits);

// The forbidden read as the API server said it: `User "x" cannot get resource "pods/log"`
// -> {"x", "get", "pods/log"}; empty parts where the text does not say. Pure.
struct Denied {
  std::string user, verb, resource;
};
Denied denied_parts(const std::string& message);

}  // namespace icheck::check
