#include "check/transfer_run.hpp"

#include <thread>

#include "exec/child.hpp"
#include "exec/fanout.hpp"

namespace icheck::check {
namespace {

rules::SideOutput side_output(const exec::ChildResult& r, const std::string& program) {
  rules::SideOutput s;
  s.ran = !r.not_found && r.spawn_error.empty();
  if (r.not_found) s.start_error = program + " not found";
  else s.start_error = r.spawn_error;
  s.exit_code = r.exit_code;
  s.timed_out = r.timed_out;
  s.out = r.out;
  s.err = r.err;
  return s;
}

exec::ChildSpec spec(const std::vector<std::string>& argv, const rules::TransferPlan& plan,
                     const TransferRunOptions& o) {
  exec::ChildSpec s;
  s.argv = argv;
  s.deadline = std::chrono::seconds(plan.timeout_s) + o.kill_grace;
  return s;
}

}  // namespace

rules::TransferOutcome run_transfer(const rules::TransferPlan& plan, const TransferRunOptions& o) {
  rules::TransferOutcome out;
  out.tool = plan.tool;
  out.prefill = plan.prefill;
  out.decode = plan.decode;
  out.cross_node = plan.cross_node;
  out.timeout_s = plan.timeout_s;
  if (!plan.runnable || plan.listener_argv.empty() || plan.initiator_argv.empty()) {
    out.listener.start_error = plan.found ? "not runnable: " + plan.tool_note : plan.why_not;
    out.initiator.start_error = out.listener.start_error;
    return out;
  }
  exec::ChildResult results[2];
  exec::FanoutOptions fan;
  fan.parallel = 2;
  exec::parallel_for(2, fan, [&](std::size_t i) {
    if (i == 0) {
      results[0] = exec::run_child(spec(plan.listener_argv, plan, o));
    } else {
      std::this_thread::sleep_for(o.head_start);
      results[1] = exec::run_child(spec(plan.initiator_argv, plan, o));
    }
  });
  out.listener = side_output(results[0], plan.listener_argv.front());
  out.initiator = side_output(results[1], plan.initiator_argv.front());
  return out;
}

}  // namespace icheck::check
