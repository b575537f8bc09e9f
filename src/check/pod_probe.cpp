#include "check/pod_probe.hpp"

#include "exec/fanout.hpp"
#include "exec/interrupt.hpp"
#include "exec/local.hpp"
#include "exec/progress.hpp"
#include "kube/kubectl_argv.hpp"
#include "probe/node_script.hpp"
#include "probe/sections.hpp"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

namespace icheck::check {
namespace {

kube::ExecFailure classify(const KubeSession& session, const kube::PodInfo& pod,
                           const exec::ChildResult& r, const RunOptions& run) {
  kube::ExecOutcome outcome;
  outcome.exit_code = r.exit_code;
  outcome.stderr_text = r.err;
  outcome.timed_out = r.timed_out;
  outcome.not_found = r.not_found;
  outcome.spawn_error = r.spawn_error;
  outcome.interrupt_signal = r.interrupted ? exec::interrupt_signal() : 0;
  outcome.truncated = r.truncated;
  outcome.stdout_empty = r.out.empty();
  kube::ExecTarget target{pod.name, pod.namespace_, pod.container, session.program, run.timeout};
  return kube::classify_exec_failure(outcome, target);
}

// kubectl exec can exit 0 with its stdout cut short (kubernetes/kubernetes#124571): the script
// ran to its end, but the final marker never arrived.
bool lost_output(const exec::ChildResult& r) {
  return r.ok() && !probe::output_complete(r.out);
}

// kubectl (client-go) drops an exec's status when the stream then ends without a close frame
// (EOF, a reset) and exits 1 saying "error reading from error stream". The probe's own end
// marker, which carries the run's nonce, proves that the script ran to its end and that its
// output arrived whole: the trailer changes nothing (issue 27; the proxy transport reads the
// status itself).
void keep_whole_output(exec::ChildResult& r) {
  constexpr std::string_view trailer = "error reading from error stream";
  const auto at = r.err.find(trailer);
  if (r.exit_code != 1 || at == std::string::npos || r.timed_out || r.truncated || r.interrupted ||
      r.signal != 0 || !probe::output_complete(r.out))
    return;
  const auto line = r.err.rfind('\n', at);
  const auto begin = line == std::string::npos ? 0 : line + 1;
  const auto end = r.err.find('\n', at);
  r.err.erase(begin, end == std::string::npos ? std::string::npos : end + 1 - begin);
  r.exit_code = 0;
}

// A fresh nonce for the probe's section markers (sections.hpp): the pod cannot guess it.
std::string section_nonce() {
  std::random_device device;
  std::string nonce;
  for (int i = 0; i < 4; ++i) {
    char word[9];
    std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(device()));
    nonce += word;
  }
  return nonce;
}

}  // namespace

std::vector<PodProbe> probe_pods(const KubeSession& session, PodExec& pod_exec,
                                 const std::vector<kube::PodInfo>& pods, const std::string& script,
                                 const RunOptions& run, const ReadLimits* reads,
                                 std::optional<std::chrono::milliseconds> metrics_interval) {
  std::vector<PodProbe> probes;
  std::vector<std::size_t> runnable;
  for (const auto& pod : pods) {
    probes.push_back({pod, std::nullopt, {}, std::nullopt, std::nullopt});
    if (pod.probeable() || reads != nullptr) {
      runnable.push_back(probes.size() - 1);
    }
  }
  // The pod side ends by itself too, when the exec's deadline has passed (kubectl killed).
  const auto nonce = section_nonce();
  const std::string bounded_script =
      probe::with_nonce(probe::with_deadline(script, run.timeout), nonce);
  exec::ProgressLine progress(stderr, "probed", "pods", run.progress);
  std::vector<std::string> names;
  for (const auto i : runnable) {
    names.push_back(probes[i].pod.name);
  }
  progress.name_jobs(std::move(names));
  // The most the fan-out may take: one deadline per wave of `parallel` pods.
  const std::size_t parallel = std::max<std::size_t>(run.parallel, 1);
  const auto waves = static_cast<long>((runnable.size() + parallel - 1) / parallel);
  progress.start_clock(run.timeout * std::max(waves, 1L));
  exec::FanoutOptions fan{run.parallel, progress.callback()};
  exec::parallel_for(runnable.size(), fan, [&](std::size_t i) {
    auto& probe = probes[runnable[i]];
    if (probe.pod.probeable()) {
      exec::ChildSpec spec;
      spec.argv = kube::exec_argv(session.base, probe.pod.namespace_, probe.pod.name,
                                  probe.pod.container, bounded_script);
      spec.deadline = run.timeout;
      spec.output_cap = run.output_cap;
      spec.read_only = true;
      probe.result = pod_exec.run(spec);
      keep_whole_output(*probe.result);
      if (lost_output(*probe.result) && exec::interrupt_signal() == 0) {
        probe.result = pod_exec.run(spec);  // read-only and idempotent: once more
        keep_whole_output(*probe.result);
      }
      probe.failure = classify(session, probe.pod, *probe.result, run);
      if (metrics_interval && probe.failure.kind == kube::ExecFailureKind::none)
        probe.metrics = read_pod_metrics(pod_exec, session, probe.pod, *metrics_interval, nonce);
    }
    if (reads != nullptr && exec::interrupt_signal() == 0) {
      probe.reads = read_pod(pod_exec, session, probe.pod, *reads);
    }
    progress.finished(i);
  });
  progress.clear();
  return probes;
}

exec::ChildResult probe_local(const std::string& script, const RunOptions& run) {
  return exec::run_local(script, run.timeout, run.output_cap);
}

}  // namespace icheck::check
