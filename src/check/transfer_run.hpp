#pragma once
// `nixl --transfer`: runs a rules::TransferPlan. The listening side (decode) starts first, the
// initiating side (prefill) after a head start; both are bounded twice: locally by a deadline
// (kubectl killed) and remotely by the `timeout` the plan wraps around each tool, so nothing
// lingers in a pod even if this process is killed. Only exec::run_child spawns.

#include <chrono>

#include "rules/pairing.hpp"
#include "rules/transfer_rules.hpp"

namespace icheck::check {

struct TransferRunOptions {
  // How long the listener gets to bind before the initiator starts.
  std::chrono::milliseconds head_start{2000};
  // Past the remote `timeout`, how long kubectl may take to bring the exit status back.
  std::chrono::milliseconds kill_grace{10'000};
};

// The outputs for rules::judge_transfer. A plan that is not runnable gives an outcome whose
// sides did not start (judged skipped).
rules::TransferOutcome run_transfer(const rules::TransferPlan& plan,
                                    const TransferRunOptions& options = {});

}  // namespace icheck::check
