#pragma once
// `nixl --transfer`: runs rules::TransferPlans. Per pair the listening side (decode) starts
// first, the initiating side (prefill) after a head start; both are bounded three ways: locally
// by a deadline (kubectl killed), remotely by the `timeout` the plan wraps around each tool, and
// by their exec stream (rules::stdin_tied: the remote test ends when this process stops holding
// kubectl's stdin, killed or not). Pairs run a few at a time, never two on one node at once
// (they would share its NICs). Only exec::run_child (or the run's PodExec) runs them.

#include "check/pod_exec.hpp"
#include "rules/pair/pairing.hpp"
#include "rules/transfer/transfer_rules.hpp"

#include <chrono>
#include <cstddef>
#include <vector>

namespace icheck::check {

struct TransferRunOptions {
  // How long the listener gets to bind before the initiator starts.
  std::chrono::milliseconds head_start{2000};
  // Past the remote `timeout`, how long kubectl may take to bring the exit status back.
  std::chrono::milliseconds kill_grace{10'000};
  // Pairs tested at the same time (on disjoint nodes).
  std::size_t parallel_pairs = 4;
  // The run's transport; null: a kubectl exec child per side.
  PodExec* pod_exec = nullptr;
};

// The outputs for rules::judge_transfer. A plan that is not runnable gives an outcome whose
// sides did not start (judged skipped).
rules::TransferOutcome run_transfer(const rules::TransferPlan& plan,
                                    const TransferRunOptions& options = {});

// Every plan, outcome i for plans[i].
std::vector<rules::TransferOutcome> run_transfers(const std::vector<rules::TransferPlan>& plans,
                                                  const TransferRunOptions& options = {});

} // namespace icheck::check
