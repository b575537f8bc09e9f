#include "check/transfer_run.hpp"

#include "exec/child.hpp"
#include "exec/fanout.hpp"
#include "kube/exec_failure.hpp"
#include "probe/transfer/transfer_output.hpp"
#include "util/text.hpp"

#include <thread>

namespace icheck::check {
namespace {

// kubectl could not bring the command into the pod (no access, pod or container gone, or the
// shell could not start the tool: 126/127): the test did not run, whatever the exit code says.
// The reason is kubectl's (or the shell's) own last line.
std::string exec_refused(const exec::ChildResult& r) {
  using K = kube::ExecFailureKind;
  kube::ExecOutcome o;
  o.exit_code = r.exit_code;
  o.stderr_text = r.err;
  switch (kube::classify_exec_failure(o, kube::ExecTarget{}).kind) {
  case K::forbidden:
  case K::unauthorized:
  case K::pod_gone:
  case K::container_not_found:
  case K::completed_pod:
  case K::connection_refused:
    break;
  default:
    if (r.exit_code != 126 && r.exit_code != 127)
      return {};
  }
  auto line = probe::last_lines(r.err, 2);
  return line.empty() ? "kubectl exec exited " + std::to_string(r.exit_code) : line;
}

// kubectl's own "command terminated with exit code N" is not the tool's output: the exit code
// says it already, and it would stand in for the tool's last line.
std::string without_kubectl_note(const std::string& err) {
  std::string out;
  for (auto line : text::lines(err)) {
    if (!text::contains(line, "command terminated with exit code"))
      out += std::string(line) + "\n";
  }
  return out;
}

rules::SideOutput side_output(const exec::ChildResult& r, const std::string& program) {
  rules::SideOutput s;
  s.ran = !r.not_found && r.spawn_error.empty();
  if (r.not_found)
    s.start_error = program + " not found";
  else
    s.start_error = r.spawn_error;
  if (r.interrupted) {
    s.ran = false;
    s.start_error = "interrupted";
  } else if (auto refused = s.ran ? exec_refused(r) : std::string(); !refused.empty()) {
    s.ran = false;
    s.start_error = refused;
  }
  s.exit_code = r.exit_code;
  s.timed_out = r.timed_out;
  s.truncated = r.truncated;
  s.out = r.out;
  s.err = without_kubectl_note(r.err);
  return s;
}

exec::ChildSpec spec(const std::vector<std::string>& argv, const rules::TransferPlan& plan,
                     const TransferRunOptions& o) {
  exec::ChildSpec s;
  s.argv = rules::stdin_tied(argv);
  s.hold_stdin = true;
  s.deadline = std::chrono::seconds(plan.timeout_s) + o.kill_grace;
  return s;
}

rules::TransferOutcome not_run(const rules::TransferPlan& plan) {
  rules::TransferOutcome out;
  out.tool = plan.tool;
  out.prefill = plan.prefill;
  out.decode = plan.decode;
  out.prefill_node = plan.prefill_node;
  out.decode_node = plan.decode_node;
  out.cross_node = plan.cross_node;
  out.timeout_s = plan.timeout_s;
  out.host_memory = plan.host_memory;
  return out;
}

} // namespace

rules::TransferOutcome run_transfer(const rules::TransferPlan& plan, const TransferRunOptions& o) {
  auto out = not_run(plan);
  if (!plan.runnable || plan.listener_argv.empty() || plan.initiator_argv.empty()) {
    out.listener.start_error = plan.found ? "not runnable: " + plan.tool_note : plan.why_not;
    out.initiator.start_error = out.listener.start_error;
    return out;
  }
  const auto run = [&o](const exec::ChildSpec& s) {
    return o.pod_exec ? o.pod_exec->run(s) : exec::run_child(s);
  };
  exec::ChildResult results[2];
  exec::FanoutOptions fan;
  fan.parallel = 2;
  exec::parallel_for(2, fan, [&](std::size_t i) {
    if (i == 0) {
      results[0] = run(spec(plan.listener_argv, plan, o));
    } else {
      std::this_thread::sleep_for(o.head_start);
      results[1] = run(spec(plan.initiator_argv, plan, o));
    }
  });
  out.listener = side_output(results[0], plan.listener_argv.front());
  out.initiator = side_output(results[1], plan.initiator_argv.front());
  return out;
}

std::vector<rules::TransferOutcome> run_transfers(const std::vector<rules::TransferPlan>& plans,
                                                  const TransferRunOptions& o) {
  std::vector<rules::TransferOutcome> outcomes(plans.size());
  for (const auto& wave : rules::transfer_waves(plans, o.parallel_pairs)) {
    exec::FanoutOptions fan;
    fan.parallel = wave.size();
    exec::parallel_for(wave.size(), fan,
                       [&](std::size_t i) { outcomes[wave[i]] = run_transfer(plans[wave[i]], o); });
  }
  return outcomes;
}

} // namespace icheck::check
