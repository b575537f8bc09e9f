#include "check/pod_metrics.hpp"

#include "exec/interrupt.hpp"
#include "kube/kubectl_argv.hpp"
#include "probe/metrics/metrics_reads.hpp"
#include "probe/metrics/metrics_script.hpp"

namespace icheck::check {
namespace {

// Why the reader's exec gave no usable output: one line.
std::string not_run(const exec::ChildResult& r) {
  if (r.timed_out)
    return "the metrics reader timed out";
  if (r.interrupted)
    return "interrupted";
  if (r.not_found || !r.spawn_error.empty())
    return "the metrics reader could not be started: " + r.spawn_error;
  auto err = r.err;
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r'))
    err.pop_back();
  const auto nl = err.rfind('\n');
  return "the metrics reader exited " + std::to_string(r.exit_code) +
         (err.empty() ? std::string() : ": " + err.substr(nl == std::string::npos ? 0 : nl + 1));
}

}  // namespace

MetricsRun read_pod_metrics(PodExec& pod_exec, const KubeSession& session, const kube::PodInfo& pod,
                            std::chrono::milliseconds interval, const std::string& nonce) {
  MetricsRun run;
  run.interval = interval;
  run.endpoints = probe::metrics_endpoints(pod.spec_env, pod.command_line);
  if (run.endpoints.empty() || !pod.probeable() || exec::interrupt_signal() != 0)
    return run;
  exec::ChildSpec spec;
  spec.argv = kube::exec_argv(session.base, pod.namespace_, pod.name, pod.container,
                              probe::metrics_reader_script(run.endpoints, interval, nonce));
  spec.deadline = probe::metrics_reader_budget(run.endpoints.size(), interval);
  spec.output_cap = 4u << 20;
  spec.read_only = true;
  run.result = pod_exec.run(spec);
  return run;
}

rules::KvMetricsJudgement judge_pod_metrics(const MetricsRun& run, const kube::PodInfo& pod,
                                            std::optional<double> line_rate_gbps) {
  rules::KvMetricsInput in;
  in.role = pod.role;
  in.endpoints = run.endpoints;
  in.interval = run.interval;
  in.line_rate_gbps = line_rate_gbps;
  if (!run.endpoints.empty() && !run.result)
    in.not_run = pod.probeable() ? "interrupted" : pod.skip_detail();
  if (run.result) {
    auto reads = probe::parse_metrics_reads(run.result->out, run.endpoints);
    if (!reads.complete)
      in.not_run = not_run(*run.result);
    if (reads.complete || !reads.reader.empty())
      in.reads = std::move(reads);
  }
  return rules::judge_kv_metrics(in);
}

}  // namespace icheck::check
